// KubeResponseReader::readListPage: one page of a list response (NodeList, PodList, TopologyList,
// HyperNodeList, ResourceFlavorList, the DRA lists, ComputeDomainList), then what KubeSource and
// the session do with it.
#include "fuzz_cluster.h"
#include "fuzz_support.h"

#include "core/formats/kube_response_reader.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static topodeck::KubeResponseReader reader; // kept between calls, as each source keeps its own
    std::string body(topodeck::fuzz::text(data, size));
    topodeck::Result<topodeck::KubeListPage> page = reader.readListPage(body, "fuzz list");
    TOPODECK_FUZZ_CHECK(body == topodeck::fuzz::text(data, size), "the reader leaves the text as it was");
    if (!page) return 0;
    const topodeck::Snapshot& objects = page->objects;
    const std::size_t count = objects.nodes.size() + objects.pods.size() + objects.topologies.size() +
                              objects.hyperNodes.size() + objects.resourceFlavors.size() +
                              objects.resourceSlices.size() + objects.resourceClaims.size() +
                              objects.resourceClaimTemplates.size() + objects.deviceClasses.size() +
                              objects.computeDomains.size();
    // KubeSource pairs the i-th object with the i-th resourceVersion.
    TOPODECK_FUZZ_CHECK(page->resourceVersions.size() == count, "one resourceVersion per object read");
    topodeck::fuzz::showSnapshot(std::move(page->objects));
    return 0;
}
