#pragma once

#include "core/model/cluster_state.h"
#include "session/cluster_session.h"

#include <QAbstractTableModel>
#include <QList>

namespace topodeck {

// The gangs report as a table: name, kind, pods, GPUs, then one column per level ("spans / least",
// NVLink last), and on a cluster with ComputeDomains one more: the gang's ComputeDomain, marked
// when flagged (its nodes in more than one NVLink clique, or the gang's pods outside its cliques).
// Rows in the report's order (farthest from compact first).
class GangsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, PodsColumn, GpusColumn, FirstLevelColumn };
    enum Role {
        NodeIdsRole = Qt::UserRole + 1, // QList<quint32>: the gang's nodes (NodeIds), ascending
        QualifiedNameRole,               // QString "namespace/name"
        CompactRole,                     // bool: no level holds it in more domains than it needs
        SpansRole,                       // int, level columns: domains it is in
        LeastRole,                       // int, level columns: the fewest that could hold it
        ComputeDomainRole,               // QString "namespace/name" of its ComputeDomain; empty: none
        ComputeDomainFlaggedRole,        // bool: what the report flags about its ComputeDomain
    };

    explicit GangsModel(QObject* parent = nullptr);

    void setReport(GangsReportPtr report);
    const GangsReportPtr& report() const { return m_report; }
    // The gang of a row, or nullptr.
    const Gang* gang(int row) const;
    // The row of the gang named "namespace/name", or -1.
    int rowOf(const QString& qualifiedName) const;
    // The ComputeDomain column (after the levels), or -1 when the cluster has no ComputeDomain.
    int computeDomainColumn() const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    GangsReportPtr m_report;
};

} // namespace topodeck
