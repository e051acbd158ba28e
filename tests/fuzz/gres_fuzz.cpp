// parseGresList: a node's gres / gres_used or a job's gres_detail ("gpu:h100:8(S:0-1),shard:4").
#include "fuzz_support.h"

#include "core/slurm/slurm_inventory.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<std::vector<topodeck::SlurmGres>> gres = topodeck::parseGresList(topodeck::fuzz::text(data, size));
    if (!gres) {
        TOPODECK_FUZZ_CHECK(!gres.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    (void)topodeck::gresGpuCount(*gres);
    (void)topodeck::gresGpuType(*gres);
    return 0;
}
