// readSnapshotText: kubectl's JSON and YAML Lists (NodeList, PodList, kind: List, single objects,
// several YAML documents), then what `topodeckctl show -f` does with the snapshot.
#include "fuzz_cluster.h"
#include "fuzz_support.h"

#include "core/formats/snapshot_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<topodeck::Snapshot> snapshot = topodeck::readSnapshotText(topodeck::fuzz::text(data, size), "fuzz");
    if (!snapshot) {
        TOPODECK_FUZZ_CHECK(!snapshot.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    topodeck::fuzz::showSnapshot(std::move(*snapshot));
    return 0;
}
