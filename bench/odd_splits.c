/* What three ways of cutting an odd board (n = 2h + 1) would cost the quadrant core,
 * counted before building any (BENCHMARKS.md, "another cut of the odd board, counted before
 * building it").
 *
 *   cc -O2 -o odd_splits bench/odd_splits.c && ./odd_splits 17 cross
 *
 * cross   the core's way: the queens of the middle row, (h, c), and of the middle
 *         column, (r, h), placed first, one pair per orbit of the square's 8
 *         symmetries, weighted by its orbit; the other rows' queens lie in h x h
 *         quadrants (north rows < h, south rows > h).
 * middle  only the middle column's queen placed first, at (r, h) with r <= h (the flip
 *         top to bottom maps r to n - 1 - r: weight 2 where r < h); every row but r is
 *         left to the halves, north the first h of them (an h + 1 row quadrant with a
 *         hole at r), and the flip left to right, which maps E to its complement,
 *         halves the row sets: only those with the first free row east, weight 2.
 * rect    no queen placed first: the middle column is east's, the middle row south's,
 *         so the quadrants are h x h (north-west), h x (h + 1), (h + 1) x h and
 *         (h + 1) x (h + 1); the flip top to bottom keeps the columns' cut and maps a
 *         row set to its mirror image, so only the lesser of the two is counted,
 *         weight 2 (1 for a row set its own mirror).
 *
 * For every row set E (the rows whose queen is east) of every job, each side's join
 * products (sum over column subsets S of its north placements on S times its south
 * placements on the rest) and its half-boards (the products that fit: what the core
 * keeps, slices or matches), and the pairs sum |east| x |west| that matching tests.
 * With "check" it also pairs the half-boards one by one and prints the solutions
 * (A000170; small n only), so that each cut is shown to count every solution once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

static int n, h, check, east_from;  /* east_from: the first east column */
static u64 fixed1, fixed2;  /* the diagonals of the queens placed first: row + col, row - col + n - 1 */
static unsigned fixed_cols;
static int cols[32], ncols;  /* the side's free columns */
static u64 *by_subset[2];    /* placements of the north (0) and south (1) rows, by column subset */
static u64 found;            /* half-boards of the side at hand */
static u64 *masks[2];        /* with check: each side's half-boards, two words each */
static size_t used[2], room[2];
static double joins[2], kept[2], row_sets, pairs, solutions;

static void place(const int *rows, int count, int i, unsigned taken, u64 d1, u64 d2, u64 *tally)
{
    /* every placement of one queen in each of rows[i..count - 1], in distinct free columns */
    if (i == count) {
        tally[taken]++;
        return;
    }
    for (int k = 0; k < ncols; k++) {
        u64 b1 = 1ULL << (rows[i] + cols[k]), b2 = 1ULL << (rows[i] - cols[k] + n - 1);
        if (!(taken >> k & 1) && !(d1 & b1) && !(d2 & b2))
            place(rows, count, i + 1, taken | 1u << k, d1 | b1, d2 | b2, tally);
    }
}

static void half(const int *rows, int count, int i, unsigned taken, u64 d1, u64 d2, u64 m1, u64 m2,
                 int east)
{
    /* every half-board of the side: its queens' own diagonals kept with check */
    if (i == count) {
        found++;
        if (check) {
            if (used[east] + 2 > room[east]) {
                room[east] = room[east] ? 2 * room[east] : 1024;
                masks[east] = realloc(masks[east], room[east] * sizeof(u64));
                if (!masks[east])
                    exit(3);
            }
            masks[east][used[east]++] = m1;
            masks[east][used[east]++] = m2;
        }
        return;
    }
    for (int k = 0; k < ncols; k++) {
        u64 b1 = 1ULL << (rows[i] + cols[k]), b2 = 1ULL << (rows[i] - cols[k] + n - 1);
        if (!(taken >> k & 1) && !(d1 & b1) && !(d2 & b2))
            half(rows, count, i + 1, taken | 1u << k, d1 | b1, d2 | b2, m1 | b1, m2 | b2, east);
    }
}

static u64 side(const int *rows, int count, int north_rows, int east)
{
    /* the join products and half-boards of one side of a row set; rows sorted, the
     * first north_rows of them north */
    ncols = 0;
    for (int c = east ? east_from : 0; c < (east ? n : h); c++)
        if (!(fixed_cols >> c & 1))
            cols[ncols++] = c;
    size_t subsets = (size_t)1 << ncols;
    memset(by_subset[0], 0, subsets * sizeof(u64));
    memset(by_subset[1], 0, subsets * sizeof(u64));
    place(rows, north_rows, 0, 0, fixed1, fixed2, by_subset[0]);
    place(rows + north_rows, count - north_rows, 0, 0, fixed1, fixed2, by_subset[1]);
    for (size_t s = 0; s < subsets; s++)
        joins[east] += (double)by_subset[0][s] * by_subset[1][(subsets - 1) & ~s];
    found = 0;
    used[east] = 0;
    half(rows, count, 0, 0, fixed1, fixed2, 0, 0, east);
    kept[east] += found;
    return found;
}

static void row_set(const int *free_rows, int count, unsigned east_set, int north_limit, double weight)
{
    /* north_limit: the rows up to it are north */
    int e[32], w[32], ne = 0, nw = 0, en = 0, wn = 0;
    for (int i = 0; i < count; i++) {
        if (east_set >> i & 1) {
            e[ne++] = free_rows[i];
            en += free_rows[i] <= north_limit;
        } else {
            w[nw++] = free_rows[i];
            wn += free_rows[i] <= north_limit;
        }
    }
    u64 east = side(e, ne, en, 1), west = side(w, nw, wn, 0);
    row_sets += 1;
    pairs += (double)east * west;
    if (check) {
        u64 fit = 0;
        for (size_t i = 0; i < used[1]; i += 2)
            for (size_t j = 0; j < used[0]; j += 2)
                fit += !(masks[1][i] & masks[0][j]) && !(masks[1][i + 1] & masks[0][j + 1]);
        solutions += weight * fit;
    }
}

static void job(const int *free_rows, int count, int east_queens, int north_limit, double weight,
                int first_east)
{
    /* every row set of a job: east_queens of its free rows east (first_east: the first
     * free row among them) */
    for (unsigned m = 0; m < 1u << count; m++)
        if (__builtin_popcount(m) == east_queens && (!first_east || (m & 1)))
            row_set(free_rows, count, m, north_limit, weight);
}

static void put(int row, int col)
{
    fixed1 |= 1ULL << (row + col);
    fixed2 |= 1ULL << (row - col + n - 1);
    fixed_cols |= 1u << col;
}

static int crosses(void)
{
    int jobs = 0;
    for (int c = 0; c < n; c++)
        for (int r = 0; r < n; r++) {
            if ((c == h) != (r == h) || (c != h && abs(r - h) == abs(c - h)))
                continue;  /* one queen in the centre, or two that do not attack */
            int least = c * n + r, images[8], orbit = 0;
            for (int s = 0; s < 8; s++) {
                int q[2][2] = {{h, c}, {r, h}}, c2 = 0, r2 = 0;
                for (int k = 0; k < 2; k++) {
                    int y = q[k][0], x = q[k][1], t;
                    if (s & 4) { t = y; y = x; x = t; }
                    if (s & 1) y = n - 1 - y;
                    if (s & 2) x = n - 1 - x;
                    if (y == h && (x != h || k == 0)) c2 = x;
                    if (x == h && (y != h || k == 1)) r2 = y;
                }
                int code = c2 * n + r2, seen = 0;
                for (int k = 0; k < orbit; k++)
                    seen |= images[k] == code;
                if (!seen)
                    images[orbit++] = code;
                if (code < least)
                    least = -1;
            }
            if (least < 0)
                continue;  /* not the least of its orbit */
            jobs++;
            fixed1 = fixed2 = 0;
            fixed_cols = 0;
            put(h, c);
            if (r != h)
                put(r, h);
            int free_rows[32], count = 0;
            for (int i = 0; i < n; i++)
                if (i != h && i != r)
                    free_rows[count++] = i;
            job(free_rows, count, h - (c > h), h - 1, orbit, 0);
        }
    return jobs;
}

static int middles(void)
{
    for (int r = 0; r <= h; r++) {
        fixed1 = fixed2 = 0;
        fixed_cols = 0;
        put(r, h);
        int free_rows[32], count = 0;
        for (int i = 0; i < n; i++)
            if (i != r)
                free_rows[count++] = i;
        job(free_rows, count, h, free_rows[h - 1], (r < h ? 2 : 1) * 2, 1);
    }
    return h + 1;
}

static int rects(void)
{
    int free_rows[32];
    for (int i = 0; i < n; i++)
        free_rows[i] = i;
    for (unsigned m = 0; m < 1u << n; m++) {
        if (__builtin_popcount(m) != h + 1)
            continue;
        unsigned mirror = 0;
        for (int i = 0; i < n; i++)
            mirror |= (m >> i & 1u) << (n - 1 - i);
        if (mirror < m)
            continue;  /* counted as its mirror image */
        row_set(free_rows, n, m, h - 1, mirror == m ? 1 : 2);
    }
    return 1;
}

int main(int argc, char **argv)
{
    n = argc > 2 ? atoi(argv[1]) : 0;
    if (n < 5 || n > 21 || n % 2 == 0 ||
        (strcmp(argv[2], "cross") && strcmp(argv[2], "middle") && strcmp(argv[2], "rect"))) {
        fprintf(stderr, "usage: odd_splits N cross|middle|rect [check], N odd, 5..21\n");
        return 2;
    }
    h = n / 2;
    check = argc > 3 && !strcmp(argv[3], "check");
    by_subset[0] = malloc(((size_t)1 << (h + 1)) * sizeof(u64));
    by_subset[1] = malloc(((size_t)1 << (h + 1)) * sizeof(u64));
    east_from = strcmp(argv[2], "rect") ? h + 1 : h;
    int jobs = !strcmp(argv[2], "rect") ? rects() : strcmp(argv[2], "cross") ? middles() : crosses();
    printf("n=%d %s jobs=%d row_sets=%.0f joins_east=%.0f kept_east=%.0f joins_west=%.0f "
           "kept_west=%.0f pairs=%.0f", n, argv[2], jobs, row_sets, joins[1], kept[1], joins[0],
           kept[0], pairs);
    if (check)
        printf(" solutions=%.0f", solutions);
    printf("\n");
    return 0;
}
