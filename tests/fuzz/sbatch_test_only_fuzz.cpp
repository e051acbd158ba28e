// parseSbatchTestOnly: what `sbatch --test-only` printed on stderr; its node list is a hostlist.
#include "fuzz_support.h"

#include "core/slurm/slurm_text.h"
#include "core/text/hostlist.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<topodeck::SbatchTestOnly> answer = topodeck::parseSbatchTestOnly(topodeck::fuzz::text(data, size));
    if (!answer) {
        TOPODECK_FUZZ_CHECK(!answer.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    if (answer->feasible) (void)topodeck::expandHostlist(answer->nodes);
    return 0;
}
