#include "core/node.h"

#include <algorithm>

namespace topodeck {

namespace {

auto labelPosition(const std::vector<std::pair<std::string, std::string>>& labels, std::string_view key) {
    return std::lower_bound(labels.begin(), labels.end(), key,
                            [](const auto& label, std::string_view k) { return label.first < k; });
}

} // namespace

const std::string* Node::label(std::string_view key) const {
    auto it = labelPosition(labels, key);
    return it != labels.end() && it->first == key ? &it->second : nullptr;
}

void Node::setLabel(std::string_view key, std::string_view value) {
    auto it = labelPosition(labels, key);
    const auto offset = it - labels.begin();
    if (it != labels.end() && it->first == key)
        labels[static_cast<std::size_t>(offset)].second = std::string(value);
    else
        labels.insert(labels.begin() + offset, {std::string(key), std::string(value)});
}

} // namespace topodeck
