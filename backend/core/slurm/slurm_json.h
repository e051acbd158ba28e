#pragma once

#include "core/result.h"
#include "core/slurm/slurm_inventory.h"

#include <string>
#include <string_view>

namespace topodeck {

// Readers of Slurm's JSON: `sinfo --json` and slurmrestd `GET /slurm/vX/nodes` (the same object:
// {"meta", "errors", "warnings", "nodes": [...]}), `squeue --json` and `GET /slurm/vX/jobs`
// ({"jobs": [...]}). Every shape Slurm has served is read, told apart by content, not by version:
//  - v0.0.36 to v0.0.38 (Slurm 21.08-22.05): plain numbers, "state" a lower-case string (plus
//    "state_flags" from v0.0.37), job_resources.allocated_nodes as an object (v0.0.36) or a list;
//  - v0.0.39+ (23.02 and later): numbers may be {"set","infinite","number"} objects, "state" and
//    "job_state" lists of upper-case names, features lists, job_resources.nodes.allocation (v0.0.41+).
// Built on simdjson's on-demand parser without a DOM: a 20,000-node reply reads in well under a
// second. Fields a version lacks keep their defaults. A non-empty "errors" list is an Error
// (its description/error/error_number, e.g. "slurm_load_jobs: Failed while looking for jobs
// (error -1: Unspecified error)"); "warnings" go to meta.warnings. Malformed JSON or a field of
// the wrong kind is an Error naming the field ("nodes[3].cpus: expected a number, got a string").
// The reader grows the string's capacity by simdjson's padding rather than copying a reply of
// tens of megabytes; the text itself is not changed. `source` names the reply in errors
// ("sinfo --json", "slurmrestd /slurm/v0.0.38/nodes", a file path).
Result<SlurmNodesReply> readSlurmNodes(std::string& json, std::string_view source);
Result<SlurmJobsReply> readSlurmJobs(std::string& json, std::string_view source);

} // namespace topodeck
