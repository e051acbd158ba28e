#pragma once
// A name from a small set that many objects repeat: a DRA device's attribute names (a driver
// publishes a dozen, and a cluster's half a million devices each carry them). Each text is kept
// once per process and an InternedName is a pointer to it, so a device's attributes cost no
// allocation for their names however long they are ("resource.kubernetes.io/pcieRoot").
//
// The process-wide set is bounded (kMaxInterned texts): past it, a new text is held by its own
// InternedName (one allocation, copied with it), so that a source sending ever new names cannot
// grow the set without end.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace topodeck {

class InternedName {
public:
    static constexpr std::size_t kMaxInterned = 1 << 16;

    InternedName() = default;
    InternedName(std::string_view text) : m_text(lookUp(text)) {} // NOLINT: implicit, as a string's
    InternedName(const char* text) : InternedName(std::string_view(text)) {}
    InternedName(const std::string& text) : InternedName(std::string_view(text)) {}
    InternedName(const InternedName& other) : m_text(other.owns() ? own(other.view()) : other.m_text) {}
    InternedName(InternedName&& other) noexcept : m_text(other.m_text) { other.m_text = 0; }
    InternedName& operator=(const InternedName& other) {
        if (this != &other) *this = InternedName(other);
        return *this;
    }
    InternedName& operator=(InternedName&& other) noexcept {
        std::swap(m_text, other.m_text);
        return *this;
    }
    ~InternedName() {
        if (owns()) delete text();
    }

    std::string_view view() const { return m_text == 0 ? std::string_view() : std::string_view(*text()); }
    operator std::string_view() const { return view(); } // NOLINT: implicit, as a string's
    std::string str() const { return std::string(view()); }
    bool empty() const { return view().empty(); }
    std::size_t size() const { return view().size(); }

    friend bool operator==(const InternedName& a, const InternedName& b) {
        return (a.m_text == b.m_text && !a.owns()) || a.view() == b.view();
    }
    friend bool operator==(const InternedName& a, std::string_view b) { return a.view() == b; }
    friend bool operator==(const InternedName& a, const std::string& b) { return a.view() == b; }
    friend bool operator==(const InternedName& a, const char* b) { return a.view() == b; }
    friend bool operator<(const InternedName& a, const InternedName& b) { return a.view() < b.view(); }

private:
    // The interned text, or (low bit set) a text of its own past the set's bound; 0: empty.
    static std::uintptr_t lookUp(std::string_view text);
    static std::uintptr_t own(std::string_view text) {
        return reinterpret_cast<std::uintptr_t>(new std::string(text)) | 1u;
    }
    bool owns() const { return (m_text & 1u) != 0; }
    const std::string* text() const { return reinterpret_cast<const std::string*>(m_text & ~std::uintptr_t(1)); }

    std::uintptr_t m_text = 0;
};

} // namespace topodeck
