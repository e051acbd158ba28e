#pragma once

#include "session/cluster_session.h"

#include <QAbstractTableModel>

namespace topodeck {

// A dry-run's verdict per engine, one row each: the engines that ran (in the answer's order), then
// those --compare left out and why. Built from one PlanAnswer; a new answer resets it.
class PlanResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { EngineColumn, VerdictColumn, DomainsColumn, NodesColumn, MessageColumn, ColumnCount };
    enum Role {
        FeasibleRole = Qt::UserRole + 1, // bool; false for an engine that did not run
        ResultRole,                      // int: the row's index in PlanOutcome::results, -1 when it did not run
        PodsRole,                        // qlonglong: the pods it placed
    };

    explicit PlanResultModel(QObject* parent = nullptr);

    // Null, or an answer with an error: no rows.
    void setAnswer(PlanAnswerPtr answer);
    const PlanAnswerPtr& answer() const { return m_answer; }
    // The result a row shows, or null for an engine that did not run.
    const PlacementResult* result(int row) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int ranCount() const;

    PlanAnswerPtr m_answer;
};

} // namespace topodeck
