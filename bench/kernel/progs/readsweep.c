/* Read-mostly sweep: writes every page of MIB MiB once, then reads one byte of every page,
 * PASSES times. A page swapped in and evicted again unwritten costs no write on a device that
 * keeps the swap cache, and a new swap-out on zram, which frees the copy at swap-in. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? strtoul(argv[1], 0, 10) : 64;
    int passes = argc > 2 ? atoi(argv[2]) : 4;
    size_t n = mib << 20;
    volatile char *p = malloc(n);
    if (!p) return 2;
    for (size_t i = 0; i < n; i += 4096) p[i] = (char)(i >> 12);
    unsigned long sum = 0;
    for (int k = 0; k < passes; k++)
        for (size_t i = 0; i < n; i += 4096) sum += p[i];
    printf("%lu\n", sum);
    return 0;
}
