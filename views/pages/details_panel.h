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
class QTableView;
class QTabWidget;

namespace topodeck {

class DomainChildrenModel;
class GangDomainsModel;
class NodeConditionsModel;
class NodeLabelsModel;
class NodePodsModel;
class NodeResourcesModel;
class NodeTaintsModel;
class OccupancyBarDelegate;

// Facts about the selected domain (or the whole cluster when nothing is selected), node, or
// running gang. Keeps showing the same thing, with fresh figures, as snapshots arrive. Its tables
// are views on item models (models/) fed from the snapshot and the session's answers.
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
    QTabWidget* buildNodeTabs(QWidget* page);
    QWidget* buildGangPage();
    void refresh();
    void refreshDomain();
    void showDomainFacts(const Domain& domain);
    void showChildren(const Domain& domain);
    void refreshNode();
    void showNodeTables(const Node& node);
    void refreshGang();
    void showGangFacts(const Gang& gang);
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
    DomainChildrenModel* m_childrenModel = nullptr;
    QTableView* m_children = nullptr;
    QLabel* m_childrenNote = nullptr;

    std::array<QLabel*, NodeFactCount> m_nodeFacts{};
    std::array<QLabel*, 2> m_podsNames{}; // the name of the pods row on the domain and node pages
    QTabWidget* m_nodeTabs = nullptr;
    NodePodsModel* m_podsModel = nullptr;
    NodeLabelsModel* m_labelsModel = nullptr;
    NodeTaintsModel* m_taintsModel = nullptr;
    NodeConditionsModel* m_conditionsModel = nullptr;
    NodeResourcesModel* m_resourcesModel = nullptr;
    QTableView* m_podsTable = nullptr;
    QTableView* m_labels = nullptr;
    QTableView* m_taints = nullptr;
    QTableView* m_conditions = nullptr;
    QTableView* m_resources = nullptr;

    std::array<QLabel*, GangFactCount> m_gangFacts{};
    GangDomainsModel* m_gangDomainsModel = nullptr;
    QTableView* m_gangDomains = nullptr;
    QLabel* m_gangNote = nullptr;
    OccupancyBarDelegate* m_delegate = nullptr;
};

} // namespace topodeck
