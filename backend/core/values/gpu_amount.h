#pragma once
// An amount of GPUs that may be a fraction: a MIG slice, a KAI gpu-fraction, a time-sliced
// replica. Fixed point, so that totals over a whole cluster stay exact: one GPU is kUnits units,
// a number every common share divides (halves to sixteenths, thirds, fifths to 1/125, sevenths
// for MIG slices, tenths to thousandths for decimal fractions).

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace topodeck {

class GpuAmount {
public:
    static constexpr std::int64_t kUnits = 252'000; // 2^5 * 3^2 * 5^3 * 7

    constexpr GpuAmount() = default;
    static constexpr GpuAmount whole(std::int64_t gpus) { return GpuAmount(gpus * kUnits); }
    static constexpr GpuAmount units(std::int64_t units) { return GpuAmount(units); }
    // numerator / denominator GPUs, rounded to the nearest unit (exact for the shares above).
    static GpuAmount fraction(std::int64_t numerator, std::int64_t denominator);
    // A decimal as KAI's gpu-fraction annotation writes it ("0.5", "1", ".25"); nullopt-like
    // failure is reported as false.
    static bool parseDecimal(std::string_view text, GpuAmount& out);

    constexpr std::int64_t unitCount() const { return m_units; }
    constexpr bool isZero() const { return m_units == 0; }
    constexpr bool isWhole() const { return m_units % kUnits == 0; }
    // Whole GPUs, rounded down (a partly used GPU is not a whole one).
    constexpr std::int64_t wholeGpus() const { return m_units / kUnits; }
    double gpus() const { return static_cast<double>(m_units) / kUnits; }
    // "8", "7.5", "0.14": whole numbers without a point, else at most `decimals` decimals (1..6),
    // rounded half away from zero, trailing zeros dropped.
    std::string text(int decimals = 2) const;

    constexpr GpuAmount& operator+=(GpuAmount o) { m_units += o.m_units; return *this; }
    constexpr GpuAmount& operator-=(GpuAmount o) { m_units -= o.m_units; return *this; }
    friend constexpr GpuAmount operator+(GpuAmount a, GpuAmount b) { return a += b; }
    friend constexpr GpuAmount operator-(GpuAmount a, GpuAmount b) { return a -= b; }
    friend constexpr GpuAmount operator*(GpuAmount a, std::int64_t n) { return GpuAmount(a.m_units * n); }
    friend constexpr auto operator<=>(GpuAmount, GpuAmount) = default;
    friend constexpr bool operator==(GpuAmount, GpuAmount) = default;

private:
    constexpr explicit GpuAmount(std::int64_t units) : m_units(units) {}
    std::int64_t m_units = 0;
};

} // namespace topodeck
