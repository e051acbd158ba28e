#include "core/values/gpu_amount.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace topodeck {

GpuAmount GpuAmount::fraction(std::int64_t numerator, std::int64_t denominator) {
    if (denominator == 0) return {};
    // Rounded half away from zero; 128 bits so that large numerators do not overflow.
    const __int128 scaled = static_cast<__int128>(numerator) * kUnits;
    const __int128 half = (denominator > 0 ? denominator : -denominator) / 2;
    const __int128 rounded = (scaled >= 0) == (denominator > 0) ? (scaled + (denominator > 0 ? half : -half)) / denominator
                                                                 : (scaled - (denominator > 0 ? half : -half)) / denominator;
    return GpuAmount(static_cast<std::int64_t>(rounded));
}

bool GpuAmount::parseDecimal(std::string_view text, GpuAmount& out) {
    // digits [ '.' digits ], at least one digit in all, no sign: a share is never negative.
    const std::size_t point = text.find('.');
    const std::string_view whole = text.substr(0, point);
    const std::string_view decimals = point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
    if (whole.empty() && decimals.empty()) return false;
    if (whole.size() > 12 || decimals.size() > 12) return false;
    std::int64_t wholePart = 0;
    std::int64_t decimalPart = 0;
    for (const char c : whole) {
        if (c < '0' || c > '9') return false;
        wholePart = wholePart * 10 + (c - '0');
    }
    std::int64_t scale = 1;
    for (const char c : decimals) {
        if (c < '0' || c > '9') return false;
        decimalPart = decimalPart * 10 + (c - '0');
        scale *= 10;
    }
    out = GpuAmount::whole(wholePart) + fraction(decimalPart, scale);
    return true;
}

std::string GpuAmount::text(int decimals) const {
    if (isWhole()) return std::to_string(wholeGpus());
    decimals = std::clamp(decimals, 1, 6);
    std::int64_t scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10;
    const __int128 scaled = static_cast<__int128>(m_units) * scale;
    const __int128 rounded = (scaled + (scaled >= 0 ? kUnits / 2 : -kUnits / 2)) / kUnits;
    const auto magnitude = static_cast<std::int64_t>(rounded < 0 ? -rounded : rounded);
    std::string out = (rounded < 0 ? "-" : "") + std::to_string(magnitude / scale);
    std::string fraction = std::to_string(magnitude % scale);
    fraction.insert(0, static_cast<std::size_t>(decimals) - fraction.size(), '0');
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    if (!fraction.empty()) out += '.' + fraction;
    return out;
}

} // namespace topodeck
