/* The TLB's reach: a pointer chase through N pages, one cache line in each (in random cyclic
 * order, the line's offset in its page varied so that lines spread over the cache's sets), and
 * through the same N lines packed into N/64 pages. Prints `N ns_per_access_pages ns_packed` per N:
 * the two differ by the translations the TLB misses. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double chase(char *buf, size_t n, size_t stride) {
    size_t *perm = malloc(n * sizeof *perm);
    if (!perm) exit(2);
    for (size_t i = 0; i < n; i++) perm[i] = i;
    uint64_t x = 88172645463325252ull;
    for (size_t i = n - 1; i > 0; i--) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;  /* xorshift64 */
        size_t j = x % (i + 1), t = perm[i];
        perm[i] = perm[j]; perm[j] = t;
    }
#define AT(k) (buf + (k) * stride + (stride == 4096 ? ((k) % 64) * 64 : 0))
    for (size_t i = 0; i < n; i++) *(void **)AT(perm[i]) = AT(perm[(i + 1) % n]);
    void **p = (void **)AT(perm[0]);
    for (size_t i = 0; i < 4 * n; i++) p = *p;
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
        struct timespec t0, t1;
        size_t iters = 4000000;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (size_t i = 0; i < iters; i++) p = *p;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / iters;
        if (ns < best) best = ns;
    }
    free(perm);
    if (!p) puts("");
    return best;
}

int main(void) {
    static const size_t ns[] = {1024, 1536, 2048, 2560, 3072, 3584, 4096, 5120, 6144, 8192, 12288, 16384};
    size_t max = 16384;
    char *buf = mmap(0, max * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) return 2;
    madvise(buf, max * 4096, MADV_NOHUGEPAGE); /* 4 KiB translations, whatever THP is set to */
    for (size_t i = 0; i < max * 4096; i += 64) buf[i] = 0;
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        printf("%zu %.3f %.3f\n", ns[k], chase(buf, ns[k], 4096), chase(buf, ns[k], 64));
    return 0;
}
