#pragma once

#include "core/topology/topology_index.h"

#include <QString>

namespace topodeck {

// How the details name a domain. The nodes without a level's label make a domain of their own,
// which has no value to show: it reads "(no rack)".

// The short name of the domain's level ("rack"); empty for the root.
QString levelNameOf(const TopologyIndex& index, const Domain& domain);
// Its label value, or "(no LEVEL)" for the unlabelled domain.
QString domainNameOf(const TopologyIndex& index, const Domain& domain);

} // namespace topodeck
