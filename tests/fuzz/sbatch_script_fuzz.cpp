// parseSbatchScript: a batch script's #SBATCH directives (or a file holding one sbatch command),
// then `topodeckctl plan`. An input whose first line starts with "#CMDLINE " has the rest of
// that line as the command line's options, which win over the directives.
#include "fuzz_placement.h"

#include "core/placement/requests/sbatch_args.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text = topodeck::fuzz::text(data, size);
    std::string_view commandLine;
    if (text.starts_with("#CMDLINE ")) {
        const std::size_t eol = text.find('\n');
        commandLine = text.substr(9, eol == std::string_view::npos ? text.npos : eol - 9);
        text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    }
    topodeck::Result<topodeck::GangRequest> gang = topodeck::parseSbatchScript(text, "fuzz.sbatch", commandLine);
    if (!gang) {
        TOPODECK_FUZZ_CHECK(!gang.error().message.empty(), "an error says what is wrong");
        return 0;
    }
    TOPODECK_FUZZ_CHECK(gang->slurm.has_value(), "a batch script is a Slurm request");
    topodeck::fuzz::planGang(*gang);
    return 0;
}
