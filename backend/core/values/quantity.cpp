#include "core/values/quantity.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <utility>

namespace topodeck {

namespace {

using U128 = unsigned __int128;
using I128 = __int128;

// std::numeric_limits has no __int128 specialisation in strict C++20 mode, so spell the bounds out.
constexpr I128 kMaxNanos = static_cast<I128>((static_cast<U128>(1) << 127) - 1);
constexpr I128 kNanosPerUnit = 1'000'000'000;
constexpr I128 kNanosPerMilli = 1'000'000;
constexpr std::int64_t kInt64Max = 9'223'372'036'854'775'807;
constexpr std::int64_t kInt64Min = -kInt64Max - 1;
// Kubernetes caps binary-suffixed quantities at 2^63-1 units (maxAllowed in quantity.go).
constexpr U128 kBinaryCapNanos = static_cast<U128>(kInt64Max) * static_cast<U128>(kNanosPerUnit);

struct Suffix {
    Quantity::Format format;
    std::int64_t decimalExponent; // power of ten
    int binaryExponent;           // power of two
};

constexpr std::array<std::string_view, 7> kBinarySuffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

std::optional<Suffix> decimalSISuffix(std::string_view s) {
    struct Entry {
        std::string_view text;
        int exponent;
    };
    static constexpr std::array<Entry, 10> kTable = {
        {{"", 0}, {"n", -9}, {"u", -6}, {"m", -3}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}}};
    for (const Entry& e : kTable)
        if (e.text == s) return Suffix{Quantity::Format::DecimalSI, e.exponent, 0};
    return std::nullopt;
}

std::optional<Suffix> binarySISuffix(std::string_view s) {
    for (std::size_t i = 1; i < kBinarySuffixes.size(); ++i)
        if (kBinarySuffixes[i] == s) return Suffix{Quantity::Format::BinarySI, 0, static_cast<int>(i) * 10};
    return std::nullopt;
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string errorText(std::string_view input, std::string_view reason) {
    // Quote the input, but keep a runaway value from flooding a log line.
    constexpr std::size_t kMaxShown = 64;
    std::string shown(input.substr(0, kMaxShown));
    if (input.size() > kMaxShown) shown += "...";
    std::string text = "invalid quantity \"";
    text += shown;
    text += "\": ";
    text += reason;
    return text;
}

Error makeError(std::string_view input, std::string_view reason) {
    return Error{errorText(input, reason)};
}

// Magnitude parsing is exact for every input whose value fits 128-bit nanos; beyond that the caller
// decides between capping (binary suffixes, as Kubernetes does) and an error.
struct Magnitude {
    U128 nanos = 0;
    bool overflow = false;
};

bool mulChecked(U128& value, U128 factor) {
    return !__builtin_mul_overflow(value, factor, &value);
}
bool addChecked(U128& value, U128 term) {
    return !__builtin_add_overflow(value, term, &value);
}

// The digits of "<intPart>.<fracPart>" as one sequence, without building a string.
class DigitSequence {
public:
    DigitSequence(std::string_view intPart, std::string_view fracPart) : m_int(intPart), m_frac(fracPart) {}
    std::size_t size() const { return m_int.size() + m_frac.size(); }
    unsigned at(std::size_t i) const {
        return static_cast<unsigned>((i < m_int.size() ? m_int[i] : m_frac[i - m_int.size()]) - '0');
    }

private:
    std::string_view m_int;
    std::string_view m_frac;
};

// value = digits * 10^(exp10 - fracDigits) * 2^binaryExponent, in nanos, rounded up in magnitude to 1n.
Magnitude magnitudeInNanos(const DigitSequence& digits, std::size_t fracDigits, std::int64_t exp10,
                           int binaryExponent) {
    std::size_t first = 0;
    while (first < digits.size() && digits.at(first) == 0) ++first;
    if (first == digits.size()) return {};
    std::size_t last = digits.size() - 1;
    while (digits.at(last) == 0) --last;

    // Significant digits D = digits[first..last]; nanos = D * 2^bin * 10^e.
    const I128 significant = static_cast<I128>(last - first + 1);
    const I128 e = static_cast<I128>(digits.size() - 1 - last) - static_cast<I128>(fracDigits) + exp10 + 9;
    const U128 binaryFactor = static_cast<U128>(1) << binaryExponent;
    constexpr I128 kMaxDecimalDigits = 39; // 10^39 > 2^128

    if (e >= 0) {
        if (significant + e > kMaxDecimalDigits) return {0, true};
        U128 value = 0;
        for (std::size_t i = first; i <= last; ++i)
            if (!mulChecked(value, 10) || !addChecked(value, digits.at(i))) return {0, true};
        for (I128 i = 0; i < e; ++i)
            if (!mulChecked(value, 10)) return {0, true};
        if (!mulChecked(value, binaryFactor)) return {0, true};
        return {value, false};
    }

    // Some digits fall below 1n: the whole part is exact, the fraction only decides the round-up.
    const I128 shift = -e;
    const std::size_t wholeDigits = shift < significant ? static_cast<std::size_t>(significant - shift) : 0;
    U128 whole = 0;
    for (std::size_t i = first; i < first + wholeDigits; ++i)
        if (!mulChecked(whole, 10) || !addChecked(whole, digits.at(i))) return {0, true};
    if (!mulChecked(whole, binaryFactor)) return {0, true};

    // Multiply the fraction 0.f1f2...fk (behind `shift - k` zeros) by 2^bin, from its last digit up;
    // the final carry is the part that becomes whole nanos, any non-zero digit left means "round up".
    U128 carry = 0;
    bool remainder = false;
    for (std::size_t i = last + 1; i-- > first + wholeDigits;) {
        const U128 t = static_cast<U128>(digits.at(i)) * binaryFactor + carry;
        remainder = remainder || t % 10 != 0;
        carry = t / 10;
    }
    for (I128 zeros = shift - (significant - static_cast<I128>(wholeDigits)); zeros > 0 && carry != 0; --zeros) {
        remainder = remainder || carry % 10 != 0;
        carry /= 10;
    }
    if (!addChecked(whole, carry) || (remainder && !addChecked(whole, 1))) return {0, true};
    return {whole, false};
}

// Parses "[eE][+-]?<digits>" into a power of ten; nullopt when it is not that shape.
std::optional<Suffix> exponentSuffix(std::string_view s, bool& outOfRange) {
    if (s.size() < 2 || (s[0] != 'e' && s[0] != 'E')) return std::nullopt;
    std::size_t pos = 1;
    bool negative = false;
    if (s[pos] == '+' || s[pos] == '-') negative = s[pos++] == '-';
    if (pos == s.size()) return std::nullopt;
    // Accumulate as a negative number so that the int64 minimum is representable, like strconv.ParseInt.
    std::int64_t value = 0;
    for (; pos < s.size(); ++pos) {
        if (!isDigit(s[pos])) return std::nullopt;
        const int digit = s[pos] - '0';
        if (value < (kInt64Min + digit) / 10) outOfRange = true;
        if (!outOfRange) value = value * 10 - digit;
    }
    if (outOfRange) return std::nullopt;
    if (!negative) {
        if (value == kInt64Min) {
            outOfRange = true;
            return std::nullopt;
        }
        value = -value;
    }
    return Suffix{Quantity::Format::DecimalExponent, value, 0};
}

std::string toDecimalString(I128 value) {
    const bool negative = value < 0;
    U128 magnitude = negative ? static_cast<U128>(-(value + 1)) + 1 : static_cast<U128>(value);
    char buffer[48];
    std::size_t pos = sizeof(buffer);
    do {
        buffer[--pos] = static_cast<char>('0' + static_cast<int>(magnitude % 10));
        magnitude /= 10;
    } while (magnitude != 0);
    if (negative) buffer[--pos] = '-';
    return std::string(buffer + pos, sizeof(buffer) - pos);
}

I128 abs128(I128 v) {
    return v < 0 ? -v : v;
}

// Divides by `step` and rounds away from zero, as Kubernetes' ScaledValue does, then saturates.
std::int64_t scaledCeil(I128 nanos, I128 step) {
    I128 q = nanos / step;
    const I128 r = nanos % step;
    if (r > 0) ++q;
    if (r < 0) --q;
    if (q > kInt64Max) return kInt64Max;
    if (q < kInt64Min) return kInt64Min;
    return static_cast<std::int64_t>(q);
}

I128 saturate(I128 v) {
    return v < -kMaxNanos ? -kMaxNanos : v;
}

// The usual quantity is a short unsigned integer with a common suffix ("8", "500m", "64Gi"); a
// cluster file holds millions of them. Computed directly: with at most 15 digits and suffixes up
// to T/Ti the nanos stay far below the 128-bit limit. nullopt sends anything else down the
// general path.
std::optional<std::pair<U128, Quantity::Format>> parseSimple(std::string_view text) {
    constexpr std::size_t kMaxDigits = 15;
    std::size_t pos = 0;
    std::uint64_t digits = 0;
    while (pos < text.size() && isDigit(text[pos])) {
        if (pos == kMaxDigits) return std::nullopt;
        digits = digits * 10 + static_cast<unsigned>(text[pos++] - '0');
    }
    if (pos == 0) return std::nullopt;
    const std::string_view suffix = text.substr(pos);
    if (suffix.size() == 2 && suffix[1] == 'i') {
        const std::size_t power = std::string_view("KMGT").find(suffix[0]);
        if (power == std::string_view::npos) return std::nullopt;
        const U128 nanos = (static_cast<U128>(digits) << (10 * (power + 1))) * static_cast<U128>(kNanosPerUnit);
        return std::pair{std::min(nanos, kBinaryCapNanos), Quantity::Format::BinarySI};
    }
    if (suffix.size() > 1) return std::nullopt;
    static constexpr std::string_view kSuffixes = "num kMGT"; // ' ' stands for no suffix
    const std::size_t index = suffix.empty() ? 3 : kSuffixes.find(suffix[0]);
    if (index == std::string_view::npos || (!suffix.empty() && suffix[0] == ' ')) return std::nullopt;
    U128 nanos = digits;
    for (std::size_t i = 0; i < index; ++i) nanos *= 1000;
    return std::pair{nanos, Quantity::Format::DecimalSI};
}

} // namespace

Result<Quantity> Quantity::parse(std::string_view text) {
    if (const auto simple = parseSimple(text)) return fromNanos(static_cast<I128>(simple->first), simple->second);
    if (text.empty()) return makeError(text, "empty value");
    if (isSpace(text.front()) || isSpace(text.back())) return makeError(text, "leading or trailing whitespace");

    std::size_t pos = 0;
    bool negative = false;
    if (text[pos] == '+' || text[pos] == '-') negative = text[pos++] == '-';
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) return makeError(text, "more than one sign");

    const std::size_t intStart = pos;
    while (pos < text.size() && isDigit(text[pos])) ++pos;
    const std::string_view intPart = text.substr(intStart, pos - intStart);
    std::string_view fracPart;
    if (pos < text.size() && text[pos] == '.') {
        const std::size_t fracStart = ++pos;
        while (pos < text.size() && isDigit(text[pos])) ++pos;
        fracPart = text.substr(fracStart, pos - fracStart);
    }
    if (intPart.empty() && fracPart.empty())
        return makeError(text, "expected a number such as 500m, 4Gi or 1e3 (digits, then an optional suffix)");

    const std::string_view suffixText = text.substr(pos);
    bool exponentOutOfRange = false;
    std::optional<Suffix> suffix = decimalSISuffix(suffixText);
    if (!suffix) suffix = binarySISuffix(suffixText);
    if (!suffix) suffix = exponentSuffix(suffixText, exponentOutOfRange);
    if (exponentOutOfRange) return makeError(text, "exponent out of range");
    if (!suffix) {
        std::string reason = "unknown suffix \"";
        reason += suffixText;
        reason += "\" (expected one of n u m k M G T P E Ki Mi Gi Ti Pi Ei, or e<integer>)";
        return makeError(text, reason);
    }

    Magnitude magnitude = magnitudeInNanos(DigitSequence(intPart, fracPart), fracPart.size(), suffix->decimalExponent,
                                           suffix->binaryExponent);
    Format format = suffix->format;
    if (format == Format::BinarySI) {
        if (magnitude.overflow || magnitude.nanos > kBinaryCapNanos) magnitude = {kBinaryCapNanos, false};
        // Kubernetes switches sub-unit binary values to DecimalSI so they print without rounding.
        if (magnitude.nanos != 0 && magnitude.nanos < static_cast<U128>(kNanosPerUnit)) format = Format::DecimalSI;
    } else if (magnitude.overflow || magnitude.nanos > static_cast<U128>(kMaxNanos)) {
        return makeError(text, "quantity too large (the limit is about 1.7e29)");
    }

    const I128 nanos = static_cast<I128>(magnitude.nanos);
    return fromNanos(negative ? -nanos : nanos, format);
}

Quantity Quantity::fromUnits(std::int64_t units, Format format) {
    return fromNanos(static_cast<I128>(units) * kNanosPerUnit, format);
}

Quantity Quantity::fromMillis(std::int64_t millis) {
    return fromNanos(static_cast<I128>(millis) * kNanosPerMilli);
}

Quantity Quantity::fromNanos(__int128 nanos, Format format) {
    Quantity q;
    q.m_nanos = saturate(nanos);
    q.m_format = format;
    return q;
}

std::int64_t Quantity::value() const {
    return scaledCeil(m_nanos, kNanosPerUnit);
}

std::int64_t Quantity::milliValue() const {
    return scaledCeil(m_nanos, kNanosPerMilli);
}

std::string Quantity::toString() const {
    if (m_nanos == 0) return "0";

    Format format = m_format;
    if (format == Format::BinarySI && (abs128(m_nanos) < 1024 * kNanosPerUnit || m_nanos % kNanosPerUnit != 0))
        format = Format::DecimalSI; // small or fractional binary values print exactly in decimal

    if (format == Format::BinarySI) {
        I128 units = m_nanos / kNanosPerUnit;
        std::size_t power = 0;
        while (power + 1 < kBinarySuffixes.size() && abs128(units) >= 1024 && units % 1024 == 0) {
            units /= 1024;
            ++power;
        }
        std::string text = toDecimalString(units);
        text += kBinarySuffixes[power]; // appended, not operator+: g++ 12 -O3 warns falsely (-Wrestrict)
        return text;
    }

    // Move factors of ten into the exponent, then lower it to a multiple of three.
    I128 mantissa = m_nanos;
    int exponent = -9;
    while (mantissa % 10 == 0) {
        mantissa /= 10;
        ++exponent;
    }
    for (; exponent % 3 != 0; --exponent) mantissa *= 10;

    if (format == Format::DecimalExponent)
        return toDecimalString(mantissa) + (exponent == 0 ? std::string() : "e" + std::to_string(exponent));

    // Kubernetes has no suffix above E and would print such values without one, changing their
    // meaning; keep E and grow the mantissa instead.
    for (; exponent > 18; exponent -= 3) mantissa *= 1000;
    static constexpr std::array<std::string_view, 10> kDecimalSuffixes = {"n", "u", "m", "",  "k",
                                                                          "M", "G", "T", "P", "E"};
    std::string text = toDecimalString(mantissa);
    text += kDecimalSuffixes[static_cast<std::size_t>((exponent + 9) / 3)];
    return text;
}

Quantity& Quantity::operator+=(const Quantity& other) {
    // Like Quantity.Add: a zero receiver adopts the other operand's format.
    if (m_nanos == 0) m_format = other.m_format;
    I128 sum = 0;
    if (__builtin_add_overflow(m_nanos, other.m_nanos, &sum)) sum = other.m_nanos > 0 ? kMaxNanos : -kMaxNanos;
    m_nanos = saturate(sum);
    return *this;
}

Quantity& Quantity::operator-=(const Quantity& other) {
    // Like Quantity.Sub: a zero receiver adopts the other operand's format.
    if (m_nanos == 0) m_format = other.m_format;
    I128 difference = 0;
    if (__builtin_sub_overflow(m_nanos, other.m_nanos, &difference))
        difference = other.m_nanos < 0 ? kMaxNanos : -kMaxNanos;
    m_nanos = saturate(difference);
    return *this;
}

} // namespace topodeck
