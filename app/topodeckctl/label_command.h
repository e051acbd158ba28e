#pragma once

#include "cli_args.h"

#include <span>
#include <string>

namespace topodeck::cli {

// `topodeckctl label`: kubectl label's syntax, but it writes a change plan (each label's value
// found, as its precondition) and previews it, instead of changing the cluster.
const CommandSpec& labelCommandSpec();
int runLabelCommand(std::span<const std::string> args);

// `topodeckctl relabel`: a change plan that labels every node with the domains it sits in under
// any hierarchy (a Slurm topology, HyperNodes, a Topology object, other label keys).
const CommandSpec& relabelCommandSpec();
int runRelabelCommand(std::span<const std::string> args);

// `topodeckctl objects FORMAT`: a change plan that makes the cluster's HyperNodes, Kueue Topology
// and ResourceFlavor, or KAI Topology those of a hierarchy.
const CommandSpec& objectsCommandSpec();
int runObjectsCommand(std::span<const std::string> args);

// `topodeckctl slinky`: a change plan of Slinky's topology annotation on every node.
const CommandSpec& slinkyCommandSpec();
int runSlinkyCommand(std::span<const std::string> args);

} // namespace topodeck::cli
