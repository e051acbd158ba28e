// readSlurmJobs: `squeue --json` and slurmrestd's jobs reply, every version's shape, then the
// pods a Slurm source makes of the jobs on a few nodes.
#include "fuzz_slurm.h"

#include "core/slurm/slurm_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string json(topodeck::fuzz::text(data, size));
    topodeck::Result<topodeck::SlurmJobsReply> reply = topodeck::readSlurmJobs(json, "fuzz jobs.json");
    TOPODECK_FUZZ_CHECK(json == topodeck::fuzz::text(data, size), "the reader leaves the text as it was");
    if (!reply) {
        TOPODECK_FUZZ_CHECK(!reply.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    topodeck::fuzz::showSlurm(nullptr, topodeck::fuzz::someSlurmNodes(), std::move(reply->jobs));
    return 0;
}
