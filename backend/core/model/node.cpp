#include "core/model/node.h"

#include <algorithm>

namespace topodeck {

namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

auto position(const Entries& entries, std::string_view key) {
    return std::lower_bound(entries.begin(), entries.end(), key,
                            [](const auto& entry, std::string_view k) { return entry.first < k; });
}

const std::string* find(const Entries& entries, std::string_view key) {
    auto it = position(entries, key);
    return it != entries.end() && it->first == key ? &it->second : nullptr;
}

void set(Entries& entries, std::string_view key, std::string_view value) {
    auto it = position(entries, key);
    const auto offset = it - entries.begin();
    if (it != entries.end() && it->first == key)
        entries[static_cast<std::size_t>(offset)].second = std::string(value);
    else
        entries.insert(entries.begin() + offset, {std::string(key), std::string(value)});
}

} // namespace

const std::string* Node::label(std::string_view key) const {
    return find(labels, key);
}
void Node::setLabel(std::string_view key, std::string_view value) {
    set(labels, key, value);
}
const std::string* Node::annotation(std::string_view key) const {
    return find(annotations, key);
}
void Node::setAnnotation(std::string_view key, std::string_view value) {
    set(annotations, key, value);
}

} // namespace topodeck
