#include "core/formats/kube_object_readers.h"

namespace topodeck::object_reader {

std::string ObjectLabel::str() const {
    std::string out(kind.empty() ? std::string_view("object") : kind);
    if (!name.empty()) {
        out += ' ';
        if (!nameSpace.empty()) {
            out += nameSpace;
            out += '/';
        }
        out += name;
        return out;
    }
    if (index >= 0) out += " #" + std::to_string(index) + " in items";
    if (document > 0) out += (index >= 0 ? " of document " : " in document ") + std::to_string(document);
    return out;
}

PodPhase parsePhase(std::string_view phase) {
    if (phase.empty() || phase == "Pending") return PodPhase::Pending;
    if (phase == "Running") return PodPhase::Running;
    if (phase == "Succeeded") return PodPhase::Succeeded;
    if (phase == "Failed") return PodPhase::Failed;
    return PodPhase::Unknown;
}

PodScheduler parseSchedulerName(std::string_view name) {
    if (name.empty() || name == "default-scheduler") return PodScheduler::Default;
    if (name == "volcano") return PodScheduler::Volcano;
    if (name == "kai-scheduler") return PodScheduler::Kai;
    return PodScheduler::Other;
}

PodTopologyRequest podTopologyRequest(const PodScratch& pod) {
    if (!pod.kueueRequired.empty()) return {PodTopologyRequest::Mode::Required, std::string(pod.kueueRequired)};
    if (!pod.kueuePreferred.empty()) return {PodTopologyRequest::Mode::Preferred, std::string(pod.kueuePreferred)};
    if (pod.kueueUnconstrained == "true") return {PodTopologyRequest::Mode::Unconstrained, {}};
    return {};
}

} // namespace topodeck::object_reader
