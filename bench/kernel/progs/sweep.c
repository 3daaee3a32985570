/* Anon sweep: allocates MIB MiB and, PASSES times, reads and writes one byte of every page in
 * order. Each page is written at every pass, so every eviction is a swap-out. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? strtoul(argv[1], 0, 10) : 64;
    int passes = argc > 2 ? atoi(argv[2]) : 4;
    size_t n = mib << 20;
    volatile char *p = malloc(n);
    if (!p) return 2;
    unsigned long sum = 0;
    for (int k = 0; k < passes; k++)
        for (size_t i = 0; i < n; i += 4096) {
            p[i] += 1;
            sum += p[i];
        }
    printf("%lu\n", sum);
    return 0;
}
