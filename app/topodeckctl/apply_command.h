#pragma once

#include "cli_args.h"

#include <span>
#include <string>

namespace topodeck::cli {

// `topodeckctl apply -f PLAN`: refuses a drifted plan, dry-runs every node's patch on the server,
// then applies them in batches with their preconditions, writing a journal as it goes. Exit 0
// applied (or the dry run passed), 1 refused or stopped, 2 bad input.
const CommandSpec& applyCommandSpec();
int runApplyCommand(std::span<const std::string> args);

// `topodeckctl undo JOURNAL [--yes]`: the reverse of what the journal's apply did; a preview
// (with the server's dry run) without --yes, an apply with it.
const CommandSpec& undoCommandSpec();
int runUndoCommand(std::span<const std::string> args);

} // namespace topodeck::cli
