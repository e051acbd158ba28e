#pragma once

#include "session/cluster_session.h"

#include <QWidget>

#include <functional>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QStringListModel;
class QTableView;
class QTableWidget;

namespace topodeck {

class WhatIfListModel;

// What-if steps written as flags: "--fail TARGET", "--drain TARGET", "--place 'PLAN FLAGS'", in
// order (topodeck --what-if). Errors name the word that is wrong.
struct WhatIfStepText {
    WhatIfStep::Kind kind;
    QString text;
};
Result<std::vector<WhatIfStepText>> parseWhatIfSteps(const QString& words);

// The what-if list: hypothetical gangs placed and nodes or domains drained or failed, applied in
// order to a copy of the live cluster (ClusterSession::requestWhatIf). Steps are added from the
// target field (with completion of the shown cluster's domains and nodes), from the planner's
// flags, or by the window from its selection; edited in place (F2, double-click), removed
// (Delete) and reordered (Alt+Up, Alt+Down). Apply (Ctrl+Return) shows the result with the
// running gangs each failure breaks and whether each would fit again; Reset (Ctrl+Backspace)
// returns to the live cluster.
class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    // The verdict comes right after the gang, so that a narrow dock still shows it.
    enum FailureColumn { GangColumn, FitsColumn, LostColumn, EngineColumn, KindColumn, WhyColumn, FailureColumnCount };

    explicit WhatIfPanel(ClusterSession* session, QWidget* parent = nullptr);
    ~WhatIfPanel() override;

    // Where "Add Planner's Gang" takes its flags from (the planner's flags line).
    void setPlaceFlagsProvider(std::function<QString()> provider) { m_placeFlags = std::move(provider); }
    // The cluster shown, whose domains and nodes the target field completes.
    void setCompletionSnapshot(const ClusterSnapshotPtr& snapshot);

    WhatIfListModel* model() const { return m_model; }
    QTableView* stepsView() const { return m_steps; }
    QTableWidget* failuresTable() const { return m_failures; }
    QLineEdit* targetEdit() const { return m_target; }
    QComboBox* kindChooser() const { return m_kind; }
    QAction* applyAction() const { return m_apply; }
    QAction* resetAction() const { return m_reset; }
    // The newest answer shown while applied, else null.
    const WhatIfAnswerPtr& answer() const { return m_answer; }
    QString statusText() const;

public Q_SLOTS:
    void addPlaceStep(const QString& flags);
    void addTargetStep(topodeck::WhatIfStep::Kind kind, const QString& target);
    // Steps as parseWhatIfSteps reads them, added at the end; false (and the status says why) on an error.
    bool addSteps(const QString& words);
    void apply();
    void reset();

Q_SIGNALS:
    // Once per answer shown (tests wait for it).
    void answerShown();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void addFromField();
    void moveCurrent(int delta);
    void removeCurrent();
    void showAnswer(const WhatIfAnswerPtr& answer);
    void showLive();
    void setStatus(const QString& text, bool problem = false);

    ClusterSession* m_session;
    WhatIfListModel* m_model = nullptr;
    QComboBox* m_kind = nullptr;
    QLineEdit* m_target = nullptr;
    QStringListModel* m_completions = nullptr;
    QTableView* m_steps = nullptr;
    QTableWidget* m_failures = nullptr;
    QLabel* m_status = nullptr;
    QAction* m_apply = nullptr;
    QAction* m_reset = nullptr;
    QAction* m_moveUp = nullptr;
    QAction* m_moveDown = nullptr;
    QAction* m_remove = nullptr;
    std::function<QString()> m_placeFlags;
    WhatIfAnswerPtr m_answer;
    std::uint64_t m_completionEpoch = 0;
    bool m_hasCompletions = false;
};

} // namespace topodeck
