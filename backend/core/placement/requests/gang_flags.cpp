#include "core/placement/requests/gang_flags.h"

namespace topodeck {

Result<GangRequest> gangFromFlags(const GangFlags& flags) {
    if (flags.pods <= 0) return Error{"the gang needs at least one pod (--pods N)"};
    if (flags.unconstrained && (!flags.required.empty() || !flags.preferred.empty()))
        return Error{"--unconstrained cannot be combined with --required or --preferred"};
    for (const SliceLayer& layer : flags.slices) {
        if (layer.size <= 0) return Error{"slice size for level \"" + layer.level + "\" must be at least 1"};
        if (flags.pods % layer.size != 0)
            return Error{"--pods " + std::to_string(flags.pods) + " is not a multiple of the slice size " +
                         std::to_string(layer.size) + " at level \"" + layer.level + "\""};
    }

    GangRequest gang;
    gang.pods = flags.pods;
    gang.perPod = flags.perPod;
    gang.topologyName = flags.topologyName;
    gang.source = "flags";

    KueueConstraint& kueue = gang.kueue;
    if (!flags.required.empty()) {
        kueue.mode = KueueConstraint::Mode::Required;
        kueue.level = flags.required;
    } else if (!flags.preferred.empty()) {
        kueue.mode = KueueConstraint::Mode::Preferred;
        kueue.level = flags.preferred;
    } else if (flags.unconstrained) {
        kueue.mode = KueueConstraint::Mode::Unconstrained;
    }
    kueue.slices = flags.slices;

    gang.kai.required = flags.required;
    gang.kai.preferred = flags.preferred;
    if (!flags.slices.empty()) {
        // KAI has one segment layer: the innermost slice is what each segment must keep together.
        gang.kai.segmentSize = flags.slices.back().size;
        gang.kai.segmentRequired = flags.slices.back().level;
    }

    // Volcano names the limit by tier; derived HyperNodes carry the level's short name as tierName.
    if (!flags.required.empty()) {
        gang.volcano.networkTopology = VolcanoTopology{true, std::nullopt, flags.required};
    } else if (!flags.preferred.empty()) {
        gang.volcano.networkTopology = VolcanoTopology{false, std::nullopt, flags.preferred};
    }
    if (!flags.slices.empty()) {
        gang.volcano.partitionSize = flags.slices.back().size;
        gang.volcano.partitionTopology = VolcanoTopology{true, std::nullopt, flags.slices.back().level};
    }
    return gang;
}

} // namespace topodeck
