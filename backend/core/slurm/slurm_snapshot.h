#pragma once

#include "core/model/snapshot.h"
#include "core/result.h"
#include "core/slurm/slurm_topology.h"

#include <string>

namespace topodeck {

// A Slurm cluster frozen as the files Slurm itself gives: a directory holding nodes.json
// (`sinfo --json` or slurmrestd's nodes reply), jobs.json (`squeue --json` or the jobs reply;
// optional), topology.conf or topology.yaml (optional) and slurm-version.txt (optional: the
// version the live source reported, one line). `topodeckctl snapshot` writes one from a live
// source; -f DIR reads it back into the model a live source would have built.
inline constexpr const char* kSlurmNodesFile = "nodes.json";
inline constexpr const char* kSlurmJobsFile = "jobs.json";
inline constexpr const char* kSlurmTopologyFile = "topology.conf";
inline constexpr const char* kSlurmTopologyYamlFile = "topology.yaml";
inline constexpr const char* kSlurmVersionFile = "slurm-version.txt";

bool isSlurmFileSet(const std::string& directory);
// Snapshot::slurmVersion is slurm-version.txt's line, else (directories written before it
// existed) the release in nodes.json's meta, else empty.
Result<Snapshot> readSlurmFileSet(const std::string& directory);
// Writes the files (the directory is created; existing files are replaced); a topology of
// nullptr writes none, and an empty version no slurm-version.txt.
Status writeSlurmFileSet(const std::string& directory, const std::string& nodesJson, const std::string& jobsJson,
                         const SlurmTopology* topology, const std::string& slurmVersion = {});

} // namespace topodeck
