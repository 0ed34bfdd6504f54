#ifndef OSD_THREAD_LOCAL_OFFER_H
#define OSD_THREAD_LOCAL_OFFER_H

/// One pointer per thread, read and written as a C thread-local variable: a load or a store,
/// where pthread_setspecific and pthread_getspecific are calls that look the key up. A context
/// loading a model offers its backing data here for the one initializer call that takes it.
extern _Thread_local void *osd_thread_local_offer;

/// Puts `pointer` (or NULL) on offer on the calling thread.
static inline void osd_set_thread_local_offer(void *pointer) {
    osd_thread_local_offer = pointer;
}

/// What is on offer on the calling thread, or NULL.
static inline void *osd_thread_local_offer_value(void) {
    return osd_thread_local_offer;
}

#endif
