#include "core/placement/engines/placement_engine.h"

#include <algorithm>

namespace topodeck {

const std::vector<const PlacementEngine*>& placementEngines() {
    static const std::vector<const PlacementEngine*> engines = {&kueueTasEngine(), &volcanoEngine(), &kaiEngine(),
                                                                &slurmTreeEngine(), &slurmBlockEngine()};
    return engines;
}

const PlacementEngine* findPlacementEngine(std::string_view name) {
    const auto& engines = placementEngines();
    const auto found = std::find_if(engines.begin(), engines.end(),
                                    [name](const PlacementEngine* engine) { return engine->name() == name; });
    return found == engines.end() ? nullptr : *found;
}

} // namespace topodeck
