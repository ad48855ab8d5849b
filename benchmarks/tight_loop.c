/* A tight C loop of random Sheepshead play: the yardstick for the engine's speed.
 *
 * Deliberately minimal: the deal, picking, a random bury, then six tricks with
 * follow-suit and the trick winner, hands held in local 64-bit masks, nothing
 * stored but the picker's points. No call, hold card, partner, unknown, leaster
 * or scoring bands: an upper bound on what any full engine can reach here.
 *
 * Build and run (benchmarks/bench_sheepshead.py does this):
 *   cc -O3 -march=native -o tight_loop benchmarks/tight_loop.c && ./tight_loop 2000000
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

static const int TRUMPS[14] = {10, 49, 36, 23, 9, 48, 35, 22, 25, 21, 24, 20, 19, 18}; /* QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D */
static int eff[54], power[54], points[54];
static uint64_t suit_mask[5], deck_mask;

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline int64_t below(uint64_t *ctr, int64_t n) {
    *ctr += 0x9E3779B97F4A7C15ULL;
    return (int64_t)(((mix64(*ctr) >> 32) * (uint64_t)n) >> 32);
}
static inline int nth(uint64_t m, int64_t n) {
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64(1ULL << n, m));
#else
    while (n--) m &= m - 1;
    return __builtin_ctzll(m);
#endif
}

int main(int argc, char **argv) {
    long hands_n = argc > 1 ? atol(argv[1]) : 2000000;
    const char *fail = "AT K987"; /* fail ranks high to low, by rank letter */
    for (int c = 0; c < 54; c++) { eff[c] = -1; power[c] = -1; }
    for (int s = 0; s < 4; s++)
        for (int r = 5; r < 13; r++) { /* 7..A */
            int c = s * 13 + r;
            deck_mask |= 1ULL << c;
            eff[c] = s;
            const char *ranks = "23456789TJQKA";
            int p = 0;
            for (int i = 0; i < 7; i++) if (fail[i] == ranks[r]) p = 7 - i;
            power[c] = p;
            points[c] = ranks[r] == 'A' ? 11 : ranks[r] == 'T' ? 10 : ranks[r] == 'K' ? 4 : ranks[r] == 'Q' ? 3 : ranks[r] == 'J' ? 2 : 0;
        }
    for (int i = 0; i < 14; i++) { eff[TRUMPS[i]] = 4; power[TRUMPS[i]] = 64 + 14 - i; }
    for (int c = 0; c < 54; c++) if (eff[c] >= 0) suit_mask[eff[c]] |= 1ULL << c;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int64_t total = 0;
    for (long h = 0; h < hands_n; h++) {
        uint64_t deal = mix64((uint64_t)h * 0x9E3779B97F4A7C15ULL ^ 12345), agent = mix64(deal);
        uint64_t hand[5], rem = deck_mask;
        int left = 32;
        for (int p = 0; p < 5; p++) {
            hand[p] = 0;
            for (int i = 0; i < 6; i++) {
                uint64_t b = 1ULL << nth(rem, below(&deal, left--));
                rem ^= b; hand[p] |= b;
            }
        }
        int dealer = h % 5, picker = -1;
        for (int k = 0; k < 5; k++)
            if (below(&agent, 2)) { picker = (dealer + 1 + k) % 5; break; }
        if (picker >= 0) {
            hand[picker] |= rem;
            for (int i = 0; i < 2; i++)
                hand[picker] ^= 1ULL << nth(hand[picker], below(&agent, __builtin_popcountll(hand[picker])));
        }
        int leader = (dealer + 1) % 5, pts = 0;
        for (int t = 0; t < 6; t++) {
            int led = -1, best = -1, win = leader, tp = 0;
            for (int i = 0; i < 5; i++) {
                int p = leader + i; if (p >= 5) p -= 5;
                uint64_t legal = hand[p];
                if (led >= 0) { uint64_t same = legal & suit_mask[led]; if (same) legal = same; }
                int c = nth(legal, below(&agent, __builtin_popcountll(legal)));
                hand[p] ^= 1ULL << c;
                if (led < 0) led = eff[c];
                int pw = power[c];
                if (pw < 64 && eff[c] != led) pw = -1;
                if (pw > best) { best = pw; win = p; }
                tp += points[c];
            }
            if (win == picker) pts += tp;
            leader = win;
        }
        total += pts;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    printf("%.0f hands/s (checksum %lld)\n", hands_n / s, (long long)total);
    return 0;
}
