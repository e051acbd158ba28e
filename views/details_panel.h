#pragma once

#include "session/cluster_snapshot.h"

#include <QWidget>

#include <array>
#include <limits>

class QLabel;
class QStackedWidget;
class QTableWidget;
class QTabWidget;

namespace topodeck {

class OccupancyBarDelegate;

// Facts about the selected domain (or the whole cluster when nothing is selected) or node. Keeps
// showing the same thing, with fresh figures, as snapshots arrive.
class DetailsPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();

    explicit DetailsPanel(QWidget* parent = nullptr);

    void setSnapshot(ClusterSnapshotPtr snapshot);
    DomainId shownDomain() const { return m_domain; } // kRootDomain for the cluster
    NodeId shownNode() const { return m_node; }       // kNoNode unless a node is shown

    QSize sizeHint() const override { return QSize(380, 600); }

Q_SIGNALS:
    // A row of the children table or an entry was activated (double-click or Enter).
    void domainActivated(topodeck::DomainId id);
    void nodeActivated(topodeck::NodeId id);

public Q_SLOTS:
    void showDomain(topodeck::DomainId id);
    void showNode(topodeck::NodeId id);
    void showCluster();

private:
    enum DomainFact {
        GpusTotal,
        GpusUsed,
        GpusFree,
        GpusUnavailable,
        GpusFragmented,
        LargestFree,
        Nodes,
        NodesReady,
        NodesSchedulable,
        NodesFree,
        Pods,
        DomainFactCount
    };
    enum NodeFact { Status, NodeGpus, NodePods, Nvlink, NodePath, NodeFactCount };

    QWidget* buildDomainPage();
    QWidget* buildNodePage();
    void refresh();
    void refreshDomain();
    void refreshNode();
    void fillChildren(const Domain& domain);

    ClusterSnapshotPtr m_snapshot;
    DomainId m_domain = kRootDomain;
    NodeId m_node = kNoNode;

    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QWidget* m_bar = nullptr;
    QStackedWidget* m_pages = nullptr;
    QWidget* m_emptyPage = nullptr;
    QWidget* m_domainPage = nullptr;
    QWidget* m_nodePage = nullptr;

    std::array<QLabel*, DomainFactCount> m_domainFacts{};
    QLabel* m_childrenTitle = nullptr;
    QTableWidget* m_children = nullptr;
    QLabel* m_childrenNote = nullptr;

    std::array<QLabel*, NodeFactCount> m_nodeFacts{};
    std::array<QLabel*, 2> m_podsNames{}; // the name of the pods row on the domain and node pages
    QTabWidget* m_nodeTabs = nullptr;
    QTableWidget* m_labels = nullptr;
    QTableWidget* m_taints = nullptr;
    QTableWidget* m_resources = nullptr;
    OccupancyBarDelegate* m_delegate = nullptr;
};

} // namespace topodeck
