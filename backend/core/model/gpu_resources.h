#pragma once

#include "core/model/resource_list.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// Which extended resources count as GPUs. Default: nvidia.com/gpu. A trailing '*' matches a
// prefix, so "nvidia.com/mig-*" counts every MIG profile.
class GpuResources {
public:
    GpuResources();
    explicit GpuResources(std::vector<std::string> patterns);
    // Comma-separated patterns, e.g. "nvidia.com/gpu,amd.com/gpu".
    static GpuResources fromList(std::string_view commaSeparated);

    bool matches(std::string_view resourceName) const;
    // Sum of whole units of every matching resource.
    std::int64_t count(const ResourceList& resources) const;
    const std::vector<std::string>& patterns() const { return m_patterns; }

private:
    std::vector<std::string> m_patterns;
};

} // namespace topodeck
