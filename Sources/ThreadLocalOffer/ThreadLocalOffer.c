#include "ThreadLocalOffer.h"

_Thread_local void *osd_thread_local_offer = 0;
