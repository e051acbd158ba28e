#include "core/values/interned_name.h"

#include <array>
#include <functional>
#include <mutex>
#include <unordered_set>

namespace topodeck {
namespace {

struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
};

// The process-wide set. Nodes do not move, so a text's address is its identity for good.
struct InternedTexts {
    std::mutex mutex;
    std::unordered_set<std::string, TextHash, std::equal_to<>> texts;
};

InternedTexts& internedTexts() {
    static auto* texts = new InternedTexts; // never destroyed: names outlive every object
    return *texts;
}

// A thread's recent look-ups, by a cheap hash of the text: a reader meets the same dozen names
// device after device, and should not take the set's lock for each.
struct RecentTexts {
    static constexpr std::size_t kSlots = 64;
    std::array<const std::string*, kSlots> slots{};
    static std::size_t slotOf(std::string_view text) {
        const std::size_t n = text.size();
        return (n * 31 + static_cast<unsigned char>(text[0]) * 7 + static_cast<unsigned char>(text[n / 2]) * 3 +
                static_cast<unsigned char>(text[n - 1])) %
               kSlots;
    }
};

} // namespace

std::uintptr_t InternedName::lookUp(std::string_view text) {
    if (text.empty()) return 0;
    thread_local RecentTexts recent;
    const std::string*& slot = recent.slots[RecentTexts::slotOf(text)];
    if (slot != nullptr && *slot == text) return reinterpret_cast<std::uintptr_t>(slot);
    InternedTexts& interned = internedTexts();
    const std::lock_guard lock(interned.mutex);
    auto found = interned.texts.find(text);
    if (found == interned.texts.end()) {
        if (interned.texts.size() >= kMaxInterned) return own(text);
        found = interned.texts.emplace(text).first;
    }
    slot = &*found;
    return reinterpret_cast<std::uintptr_t>(slot);
}

} // namespace topodeck
