/* The plain C baseline for the benchmarks: the recursive bitmask search with
 * the mirror symmetry of row 0, as a user would write it.  Prints the number
 * of solutions of each board side given on the command line, one per line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t completions(uint64_t full, uint64_t cols, uint64_t ld, uint64_t rd)
{
    if (cols == full)
        return 1;
    uint64_t total = 0;
    uint64_t free = full & ~(cols | ld | rd);
    while (free) {
        uint64_t bit = free & (0 - free);
        free ^= bit;
        total += completions(full, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
    return total;
}

uint64_t count(int n)
{
    if (n == 0)
        return 1;
    uint64_t full = (~0ULL) >> (64 - n), total = 0;
    for (int c = 0; c < n / 2; c++) {
        uint64_t bit = 1ULL << c;
        total += 2 * completions(full, bit, bit << 1, bit >> 1);
    }
    if (n % 2) {
        uint64_t bit = 1ULL << (n / 2);
        total += completions(full, bit, bit << 1, bit >> 1);
    }
    return total;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        printf("%llu\n", (unsigned long long)count(atoi(argv[i])));
    return 0;
}
