#include "demo_loader.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace topodeck::testing {

LoadedDemo loadDemo(std::string_view name) {
    Result<DemoCluster> demo = makeDemoCluster(name);
    if (!demo) {
        std::fprintf(stderr, "demo %s: %s\n", std::string(name).c_str(), demo.error().message.c_str());
        std::abort();
    }
    LoadedDemo loaded;
    loaded.demo = std::move(*demo);
    for (const ClusterEvent& event : loaded.demo.events) (void)loaded.state.apply(event);
    loaded.index = TopologyIndex::build(loaded.state, loaded.demo.topology);
    return loaded;
}

} // namespace topodeck::testing
