// What the request handlers use (RequestModelContext, ModelNotFoundError, ModelErrorStatus)
// comes with this module.
@_exported import OpenSwiftDataServer
