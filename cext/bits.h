/* Bit compression and expansion (PEXT, PDEP) for relative-rank table keys: the BMI2 instruction where
   the CPU has it (checked once at import), else a portable loop. */
#ifndef OPENHAND_BITS_H
#define OPENHAND_BITS_H
#include <stdint.h>

static int oh_bmi2 = 0;

static inline uint64_t oh_pdep_soft(uint64_t x, uint64_t m) {
    uint64_t r = 0;
    while (m) {
        uint64_t low = m & (~m + 1);
        if (x & 1) r |= low;
        x >>= 1;
        m ^= low;
    }
    return r;
}

static inline uint64_t oh_pext_soft(uint64_t x, uint64_t m) {
    uint64_t r = 0;
    int k = 0;
    while (m) {
        uint64_t low = m & (~m + 1);
        if (x & low) r |= (uint64_t)1 << k;
        k++;
        m ^= low;
    }
    return r;
}

#if defined(__BMI2__)
/* Built for BMI2 (setup.py asks for it where the building CPU has it): the instructions inline;
   the flag stays, so that tests can run the portable loops too. */
#include <immintrin.h>
static void oh_bits_init(void) { oh_bmi2 = 1; }
static inline uint64_t oh_pext(uint64_t x, uint64_t m) {
    return oh_bmi2 ? _pext_u64(x, m) : oh_pext_soft(x, m);
}
static inline uint64_t oh_pdep(uint64_t x, uint64_t m) {
    return oh_bmi2 ? _pdep_u64(x, m) : oh_pdep_soft(x, m);
}
#elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
__attribute__((target("bmi2"))) static uint64_t oh_pext_hw(uint64_t x, uint64_t m) {
    return _pext_u64(x, m);
}
__attribute__((target("bmi2"))) static uint64_t oh_pdep_hw(uint64_t x, uint64_t m) {
    return _pdep_u64(x, m);
}
static void oh_bits_init(void) { __builtin_cpu_init(); oh_bmi2 = __builtin_cpu_supports("bmi2"); }
static inline uint64_t oh_pext(uint64_t x, uint64_t m) {
    return oh_bmi2 ? oh_pext_hw(x, m) : oh_pext_soft(x, m);
}
static inline uint64_t oh_pdep(uint64_t x, uint64_t m) {
    return oh_bmi2 ? oh_pdep_hw(x, m) : oh_pdep_soft(x, m);
}
#else
static void oh_bits_init(void) { oh_bmi2 = 0; }
static inline uint64_t oh_pdep(uint64_t x, uint64_t m) { return oh_pdep_soft(x, m); }
static inline uint64_t oh_pext(uint64_t x, uint64_t m) { return oh_pext_soft(x, m); }
#endif
#endif
