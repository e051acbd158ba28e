#include "core/placement/requests/gang_request.h"

#include <algorithm>

namespace topodeck {

bool Toleration::tolerates(const Taint& taint) const {
    if (!effect.empty() && effect != taint.effect) return false;
    if (op == "Exists") return key.empty() || key == taint.key;
    return key == taint.key && value == taint.value;
}

std::int64_t gpusPerPod(const GangRequest& gang, const GpuResources& gpus) {
    if (gang.slurm && gang.slurm->gpusPerNode > 0) return gang.slurm->gpusPerNode;
    return gpus.count(gang.perPod);
}

std::vector<GangPart> GangRequest::partsOrWhole() const {
    if (!parts.empty()) return parts;
    return {asPart()};
}

bool GangRequest::usesClaims() const {
    if (!claims.empty()) return true;
    return std::any_of(parts.begin(), parts.end(), [](const GangPart& part) { return !part.claims.empty(); });
}

GangRequest GangRequest::onlyPart(std::size_t part) const {
    GangRequest one = *this;
    one.parts.clear();
    if (parts.empty()) return one;
    const GangPart& p = parts.at(part);
    one.name = name + '/' + p.name;
    one.pods = p.pods;
    one.perPod = p.perPod;
    one.nodeSelector = p.nodeSelector;
    one.tolerations = p.tolerations;
    one.kueue = p.kueue;
    one.volcano = p.volcano;
    one.claims = p.claims;
    return one;
}

} // namespace topodeck
