#include "core/model/gpu_resources.h"

#include "core/text/command_args.h"

namespace topodeck {

GpuResources::GpuResources() : m_patterns{"nvidia.com/gpu"} {}

GpuResources::GpuResources(std::vector<std::string> patterns) : m_patterns(std::move(patterns)) {}

GpuResources GpuResources::fromList(std::string_view commaSeparated) {
    return GpuResources(splitList(commaSeparated));
}

bool GpuResources::matches(std::string_view resourceName) const {
    for (const auto& pattern : m_patterns) {
        if (!pattern.empty() && pattern.back() == '*') {
            if (resourceName.starts_with(std::string_view(pattern).substr(0, pattern.size() - 1))) return true;
        } else if (resourceName == pattern) {
            return true;
        }
    }
    return false;
}

std::int64_t GpuResources::count(const ResourceList& resources) const {
    std::int64_t total = 0;
    for (const auto& [name, quantity] : resources)
        if (matches(name)) total += quantity.value();
    return total;
}

} // namespace topodeck
