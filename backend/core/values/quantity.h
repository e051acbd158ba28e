#pragma once

#include "core/result.h"

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace topodeck {

// A Kubernetes resource quantity (k8s.io/apimachinery resource.Quantity), kept exact.
// The finest precision Kubernetes keeps is 1n (nano); finer input is rounded up in magnitude
// (away from zero: 0.1n -> 1n, -0.1n -> -1n), as Kubernetes does. Values are stored as a 128-bit
// count of nano-units so that Ei-sized memory and sub-milli CPU are both exact; decimal values
// beyond about 1.7e29 are rejected, binary-suffixed ones are capped at 2^63-1 like Kubernetes.
class Quantity {
public:
    // How the quantity was written; it decides the canonical string, as in Kubernetes.
    enum class Format : std::uint8_t { DecimalSI, BinarySI, DecimalExponent };

    Quantity() = default;

    // Parses the Kubernetes quantity grammar: <sign><digits>[.<digits>][<suffix>] with suffixes
    // n u m "" k M G T P E, Ki Mi Gi Ti Pi Ei, or e<int>/E<int> ("5." and ".5" are numbers).
    // Anything else is an error whose message quotes the input. Unlike ParseQuantity's scanner, a
    // value without any digit ("Gi", ".", "-") is rejected, as the documented grammar requires.
    static Result<Quantity> parse(std::string_view text);

    static Quantity fromUnits(std::int64_t units, Format format = Format::DecimalSI);
    static Quantity fromMillis(std::int64_t millis);

    // Whole units rounded up in magnitude (away from zero: 1.5 -> 2, -1.5 -> -2), like
    // Quantity.Value(); saturates at the int64 range.
    std::int64_t value() const;
    // Milli-units rounded like value(), like Quantity.MilliValue(); saturates at the int64 range.
    std::int64_t milliValue() const;

    bool isZero() const { return m_nanos == 0; }
    bool isNegative() const { return m_nanos < 0; }
    Format format() const { return m_format; }

    // The canonical form Kubernetes prints (Quantity.String()): e.g. "1500m", "4Gi", "1k".
    // DecimalSI values of 1000E and more keep the E suffix ("1000E"), where Kubernetes would drop it.
    std::string toString() const;

    // Keep this quantity's format, except that a zero takes the other's (Quantity.Add/Sub).
    // Saturates instead of overflowing.
    Quantity& operator+=(const Quantity& other);
    Quantity& operator-=(const Quantity& other);
    friend Quantity operator+(Quantity a, const Quantity& b) { return a += b; }
    friend Quantity operator-(Quantity a, const Quantity& b) { return a -= b; }
    // Equality and order compare the amount only; the format is presentation.
    friend bool operator==(const Quantity& a, const Quantity& b) { return a.m_nanos == b.m_nanos; }
    friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) { return a.m_nanos <=> b.m_nanos; }

    // Raw access for exact arithmetic (e.g. how many pods of one request fit).
    __int128 nanos() const { return m_nanos; }
    static Quantity fromNanos(__int128 nanos, Format format = Format::DecimalSI);

private:
    __int128 m_nanos = 0;
    Format m_format = Format::DecimalSI;
};

} // namespace topodeck
