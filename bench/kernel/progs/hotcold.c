/* Hot and cold sets: MIB MiB of anon pages, HOT percent of them hot; TOUCHES random page touches
 * (a fixed-seed generator), 90% of them to the hot set, each a read and, one time in four, a write. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? strtoul(argv[1], 0, 10) : 64;
    unsigned hot_pct = argc > 2 ? (unsigned)atoi(argv[2]) : 25;
    size_t touches = argc > 3 ? strtoul(argv[3], 0, 10) : 200000;
    size_t pages = (mib << 20) / 4096, hot = pages * hot_pct / 100;
    if (hot == 0) hot = 1;
    volatile char *p = malloc(pages * 4096);
    if (!p) return 2;
    for (size_t i = 0; i < pages; i++) p[i * 4096] = 1;
    uint64_t x = 88172645463325252ull, sum = 0;
    for (size_t t = 0; t < touches; t++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;  /* xorshift64 */
        size_t pg = (x % 10 < 9) ? (x >> 8) % hot : hot + (x >> 8) % (pages - hot);
        if ((x >> 4) % 4 == 0) p[pg * 4096] += 1; else sum += p[pg * 4096];
    }
    printf("%llu\n", (unsigned long long)sum);
    return 0;
}
