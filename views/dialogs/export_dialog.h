#pragma once

#include "session/cluster_session.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;

namespace topodeck {

// File › Export for Review: `topodeckctl export`'s forms of the open cluster, written by the
// session off the GUI thread. A review bundle (a change plan, the planner's gang dry-run before
// and after, maps, a README) into a new folder, or any of the hierarchy's forms into a folder.
// It stays open after an export and lists what was written, or why nothing was.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(ClusterSession* session, QWidget* parent = nullptr);

    // The planner's flags ("" when it holds no gang) and the cluster's name, for the bundle.
    void start(const QString& plannerFlags, const QString& sourceName);
    // The form as a request; an error says what is missing.
    Result<ExportRequest> request() const;

    QLineEdit* folderField() const { return m_folder; }
    QLineEdit* planField() const { return m_plan; }
    QRadioButton* bundleChoice() const { return m_bundle; }
    QCheckBox* gangChoice() const { return m_withGang; }
    QPlainTextEdit* resultView() const { return m_result; }

Q_SIGNALS:
    // An export was answered and its outcome shown (for tests and screenshots).
    void finished(bool ok);

private:
    void exportNow();
    void showAnswer(const ExportAnswerPtr& answer);
    void updateEnabled();

    ClusterSession* m_session;
    QString m_plannerFlags;
    QString m_sourceName;
    bool m_waiting = false;
    QRadioButton* m_bundle = nullptr;
    QRadioButton* m_files = nullptr;
    QLineEdit* m_plan = nullptr;
    QCheckBox* m_withGang = nullptr;
    std::vector<std::pair<QCheckBox*, std::string>> m_formats;
    QCheckBox* m_blocks = nullptr;
    QLineEdit* m_folder = nullptr;
    QPlainTextEdit* m_result = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace topodeck
