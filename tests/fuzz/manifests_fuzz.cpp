// readGangManifests: Jobs, JobSets, PyTorchJobs, LeaderWorkerSets, Volcano Jobs, Kueue Workloads,
// PodGroups (every kind, YAML or JSON, several documents, kind: List), then `topodeckctl plan`.
#include "fuzz_placement.h"

#include "core/placement/requests/gang_manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<std::vector<topodeck::GangRequest>> gangs =
        topodeck::readGangManifests(topodeck::fuzz::text(data, size), "fuzz.yaml");
    if (!gangs) {
        TOPODECK_FUZZ_CHECK(!gangs.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    for (const topodeck::GangRequest& gang : *gangs) topodeck::fuzz::planGang(gang);
    return 0;
}
