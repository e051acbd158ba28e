#pragma once

#include "session/cluster_session.h"
#include "session/cluster_snapshot.h"

#include <QWidget>

#include <array>
#include <limits>
#include <vector>

class QFormLayout;
class QLabel;
class QStackedWidget;
class QTableWidget;
class QTabWidget;

namespace topodeck {

class OccupancyBarDelegate;

// Facts about the selected domain (or the whole cluster when nothing is selected), node, or
// running gang. Keeps showing the same thing, with fresh figures, as snapshots arrive.
class DetailsPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();

    explicit DetailsPanel(QWidget* parent = nullptr);

    // Where a node's pods come from (the snapshot has none); without a session the node page
    // lists none.
    void setSession(ClusterSession* session);
    void setSnapshot(ClusterSnapshotPtr snapshot);
    DomainId shownDomain() const { return m_domain; } // kRootDomain for the cluster
    NodeId shownNode() const { return m_node; }       // kNoNode unless a node is shown
    QString shownGang() const { return m_gang; }      // "namespace/name", or empty unless a gang is shown

    QSize sizeHint() const override { return QSize(380, 600); }

Q_SIGNALS:
    // A row of the children table or an entry was activated (double-click or Enter).
    void domainActivated(topodeck::DomainId id);
    void nodeActivated(topodeck::NodeId id);

public Q_SLOTS:
    void showDomain(topodeck::DomainId id);
    void showNode(topodeck::NodeId id);
    void showCluster();
    // The gang named "namespace/name" of the report. refreshOnly: a newer report of the gang shown,
    // ignored unless that gang is still what the panel shows.
    void showGang(const topodeck::GangsReportPtr& report, const QString& qualifiedName, bool refreshOnly = false);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // Narrower than this, each fact's name goes above its value: the value gets the pane's width.
    static constexpr int kStackedFactsWidth = 360;
    std::vector<QFormLayout*> m_factForms;
    enum DomainFact {
        GpusTotal,
        GpusUsed,
        GpusFree,
        GpusUnavailable,
        GpusFragmented,
        LargestFree,
        LargestSlot,
        Slots,
        Nodes,
        NodesReady,
        NodesSchedulable,
        NodesFree,
        Pods,
        DomainFactCount
    };
    enum NodeFact { Status, NodeGpus, NodePods, Nvlink, NodePath, NodeFactCount };
    enum GangFact { GangKind, GangPods, GangGpus, GangNodes, GangBoundaries, GangFactCount };

    QWidget* buildDomainPage();
    QWidget* buildNodePage();
    QWidget* buildGangPage();
    void refresh();
    void refreshDomain();
    void refreshNode();
    void refreshGang();
    void fillChildren(const Domain& domain);
    void fillNodeTables(const Node& node);
    void fillPods();
    void requestPods();
    void podsArrived(const NodePodsPtr& pods);

    ClusterSession* m_session = nullptr;
    ClusterSnapshotPtr m_snapshot;
    DomainId m_domain = kRootDomain;
    NodeId m_node = kNoNode;
    QString m_gang; // non-empty: the gang page is shown
    GangsReportPtr m_gangsReport;
    NodePodsPtr m_pods;               // the newest answer for m_node, or null
    NodeId m_podsAskedNode = kNoNode; // the request out, so that each snapshot asks once
    std::uint64_t m_podsAskedGeneration = 0;
    std::int64_t m_gpusPerNode = -1; // of m_snapshot, computed when first needed
    const ClusterSnapshot* m_gpusPerNodeOf = nullptr;

    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QWidget* m_bar = nullptr;
    QStackedWidget* m_pages = nullptr;
    QWidget* m_emptyPage = nullptr;
    QWidget* m_domainPage = nullptr;
    QWidget* m_nodePage = nullptr;
    QWidget* m_gangPage = nullptr;

    std::array<QLabel*, DomainFactCount> m_domainFacts{};
    QLabel* m_childrenTitle = nullptr;
    QTableWidget* m_children = nullptr;
    QLabel* m_childrenNote = nullptr;

    std::array<QLabel*, NodeFactCount> m_nodeFacts{};
    std::array<QLabel*, 2> m_podsNames{}; // the name of the pods row on the domain and node pages
    QTabWidget* m_nodeTabs = nullptr;
    QTableWidget* m_podsTable = nullptr;
    QTableWidget* m_labels = nullptr;
    QTableWidget* m_taints = nullptr;
    QTableWidget* m_conditions = nullptr;
    QTableWidget* m_resources = nullptr;

    std::array<QLabel*, GangFactCount> m_gangFacts{};
    QTableWidget* m_gangDomains = nullptr;
    QLabel* m_gangNote = nullptr;
    OccupancyBarDelegate* m_delegate = nullptr;
};

} // namespace topodeck
