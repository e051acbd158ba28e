#include "core/live_target.h"

#include "core/url_text.h"

namespace topodeck {

Result<SlurmTarget> SlurmTarget::fromArgument(std::string_view argument) {
    SlurmTarget target;
    if (argument == "cli") return target;
    if (argument.starts_with("http://") || argument.starts_with("https://") || argument.starts_with("unix:")) {
        if (argument == "unix:" || argument == "http://" || argument == "https://")
            return Error{"--slurm " + std::string(argument) + ": the URL has no host or socket path"};
        target.kind = Kind::Rest;
        target.url = std::string(argument);
        return target;
    }
    return Error{"--slurm wants \"cli\" (the Slurm commands on this machine) or slurmrestd's URL "
                 "(http://host:6820, https://..., unix:/path/to/slurmrestd.sock), not \"" +
                 std::string(argument) + "\""};
}

std::string SlurmTarget::describe() const {
    if (kind == Kind::Rest) return "slurmrestd " + redactUrl(url);
    return slurmConf.empty() ? std::string("Slurm CLI") : "Slurm CLI (SLURM_CONF=" + slurmConf + ")";
}

} // namespace topodeck
