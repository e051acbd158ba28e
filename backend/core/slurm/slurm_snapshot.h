#pragma once

#include "core/result.h"
#include "core/slurm/slurm_topology.h"
#include "core/snapshot.h"

#include <string>

namespace topodeck {

// A Slurm cluster frozen as the files Slurm itself gives: a directory holding nodes.json
// (`sinfo --json` or slurmrestd's nodes reply), jobs.json (`squeue --json` or the jobs reply;
// optional) and topology.conf or topology.yaml (optional). `topodeckctl snapshot` writes one
// from a live source; -f DIR reads it back into the model a live source would have built.
inline constexpr const char* kSlurmNodesFile = "nodes.json";
inline constexpr const char* kSlurmJobsFile = "jobs.json";
inline constexpr const char* kSlurmTopologyFile = "topology.conf";
inline constexpr const char* kSlurmTopologyYamlFile = "topology.yaml";

bool isSlurmFileSet(const std::string& directory);
Result<Snapshot> readSlurmFileSet(const std::string& directory);
// Writes the three files (the directory is created; existing files are replaced); a topology of
// nullptr writes none.
Status writeSlurmFileSet(const std::string& directory, const std::string& nodesJson, const std::string& jobsJson,
                         const SlurmTopology* topology);

} // namespace topodeck
