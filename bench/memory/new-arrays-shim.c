/*
 * What the server's live `new[]` arrays of 4 KiB or more hold, by size, and how much of each is
 * resident: an LD_PRELOAD shim for jemalloc-stages.ts (`--shim`). Node's TLS layer allocates its
 * per-socket buffers (NodeBIO) with `new char[n]`; this told that the 64 KiB read buffer each agent
 * socket keeps is mostly untouched (about 6 KiB resident). Build:
 *   gcc -O2 -shared -fPIC -o /tmp/new-arrays.so bench/memory/new-arrays-shim.c -ldl -lpthread
 * The report is written when gdb calls shim_report("FILE") in the process.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#define CAP (1u << 20)
typedef struct { void *p; size_t n; } slot;
static slot table[CAP];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static void *(*real_new)(size_t);
static void (*real_del)(void *);
static size_t h(void *p) { return ((uintptr_t)p >> 4) * 11400714819323198485ull >> 44; }
void *_Znam(size_t n) {
  if (!real_new) real_new = dlsym(RTLD_NEXT, "_Znam");
  void *p = real_new(n);
  if (n >= 4096 && p) {
    pthread_mutex_lock(&mu);
    size_t i = h(p) & (CAP - 1);
    while (table[i].p && table[i].p != (void *)1) i = (i + 1) & (CAP - 1);
    table[i].p = p; table[i].n = n;
    pthread_mutex_unlock(&mu);
  }
  return p;
}
void _ZdaPv(void *p) {
  if (!real_del) real_del = dlsym(RTLD_NEXT, "_ZdaPv");
  if (p) {
    pthread_mutex_lock(&mu);
    size_t i = h(p) & (CAP - 1);
    while (table[i].p) { if (table[i].p == p) { table[i].p = (void *)1; break; } i = (i + 1) & (CAP - 1); }
    pthread_mutex_unlock(&mu);
  }
  real_del(p);
}
/* Called through gdb: live new[] allocations >= 4 KiB by size, with resident pages (mincore). */
int shim_report(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  long page = sysconf(_SC_PAGESIZE);
  size_t sizes[64]; size_t count[64], bytes[64], resident[64]; int k = 0;
  unsigned char vec[4096];
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < CAP; i++) {
    if (!table[i].p || table[i].p == (void *)1) continue;
    uintptr_t start = (uintptr_t)table[i].p & ~(uintptr_t)(page - 1);
    uintptr_t end = (uintptr_t)table[i].p + table[i].n;
    size_t pages = (end - start + page - 1) / page;
    size_t res = 0;
    if (pages <= sizeof vec && mincore((void *)start, pages * page, vec) == 0)
      for (size_t j = 0; j < pages; j++) res += vec[j] & 1;
    int b = 0;
    while (b < k && sizes[b] != table[i].n) b++;
    if (b == k) { if (k == 64) continue; sizes[k] = table[i].n; count[k] = bytes[k] = resident[k] = 0; k++; }
    count[b]++; bytes[b] += table[i].n; resident[b] += res * page;
  }
  pthread_mutex_unlock(&mu);
  for (int b = 0; b < k; b++)
    fprintf(f, "size %zu: %zu live, %zu bytes, %zu resident\n", sizes[b], count[b], bytes[b], resident[b]);
  fclose(f);
  return k;
}
