/* The transposition table's memory: zeroed, aligned to 2 MiB and, on Linux, asked for huge
   pages (a probe lands anywhere in tens of megabytes, and with 4 KiB pages nearly every one
   also misses the TLB). Elsewhere plain zeroed memory, aligned to a cache line. */
#ifndef OPENHAND_TABLE_MEMORY_H
#define OPENHAND_TABLE_MEMORY_H
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <malloc.h>
static void* oh_table_alloc(size_t n) {
    void* p = _aligned_malloc(n, 64);
    if (p) memset(p, 0, n);
    return p;
}
static void oh_table_free(void* p) { _aligned_free(p); }
#else
#include <sys/mman.h>
#define OH_HUGE ((size_t)2 << 20)
static void* oh_table_alloc(size_t n) {
    void* p = NULL;
    size_t align = n >= OH_HUGE ? OH_HUGE : 64;
    if (posix_memalign(&p, align, n) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    if (n >= OH_HUGE) madvise(p, n, MADV_HUGEPAGE);  /* a hint: refused, it changes nothing */
#endif
    memset(p, 0, n);
    return p;
}
static void oh_table_free(void* p) { free(p); }
#endif
#endif
