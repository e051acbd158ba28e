#pragma once

#include "session/cluster_snapshot.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace topodeck {

// Which NVIDIA ComputeDomains occupy each NVLink domain of a snapshot (the NVLink domains of the
// nodes in their status and of the nodes their pods run on), for the map's badges on the NVLink
// frames and the tooltips that name them. Built once per snapshot in O(their nodes).
class ComputeDomainMarks {
    Q_DECLARE_TR_FUNCTIONS(ComputeDomainMarks)
public:
    void build(const ClusterSnapshotPtr& snapshot);
    bool empty() const { return m_byNvlink.empty(); }

    // The ComputeDomains (positions in the snapshot's computeDomains) on an NVLink domain.
    std::span<const std::uint32_t> on(std::int32_t nvlinkDomain) const;
    // The ones a node is a member of.
    std::span<const std::uint32_t> ofNode(const std::string& node) const;
    // Whether one of those on the NVLink domain spans more than one clique.
    bool flagged(std::int32_t nvlinkDomain) const;
    // The badge's text: "CD <name>" for one, "2 CDs" for more; `brief`: "CD" / "2".
    QString badgeText(std::int32_t nvlinkDomain, bool brief) const;
    // Rich text naming each of them, what it is used by and what is flagged.
    QString toolTip(std::int32_t nvlinkDomain) const;
    // "team-a/llm-cd, team-b/x-cd" for a node's row in the map's tooltip; empty when none.
    QString namesOfNode(const std::string& node) const;

private:
    ClusterSnapshotPtr m_snapshot;
    std::vector<std::vector<std::uint32_t>> m_byNvlink; // by NVLink domain; empty: no ComputeDomain at all
    std::unordered_map<std::string, std::vector<std::uint32_t>> m_byNode;
};

} // namespace topodeck
