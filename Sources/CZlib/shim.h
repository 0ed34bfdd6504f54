// zlib, the system's (zlib1g-dev on Debian and Ubuntu; in the SDK on Apple platforms): the
// store reader inflates the model a Core Data store keeps (raw DEFLATE).
#include <zlib.h>
