#pragma once

#include "core/live/live_status.h"

#include <string>

namespace topodeck {

// One answer from Slurm, whichever way it was asked (slurmrestd or a command).
struct SlurmFetch {
    enum class Outcome { Fresh, NotModified, Failed };
    Outcome outcome = Outcome::Failed;
    // Fresh: the reply. Nodes come as JSON (sinfo --json, slurmrestd), or as `scontrol -o -d show
    // nodes` text where sinfo has no --json.
    enum class Format { Json, ScontrolNodes };
    Format format = Format::Json;
    std::string body;
    // Failed: how the resource stands (Unauthorized, Unreachable, Failing, NotInstalled) and why.
    ResourceHealth::State failure = ResourceHealth::State::Failing;
    std::string message;

    static SlurmFetch failed(ResourceHealth::State state, std::string message) {
        SlurmFetch fetch;
        fetch.failure = state;
        fetch.message = std::move(message);
        return fetch;
    }
};

} // namespace topodeck
