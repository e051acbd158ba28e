#pragma once

#include "session/cluster_session.h"

#include <QWidget>

#include <vector>

class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace topodeck {

// The changes page's Journal tab: the server's answer to the last dry run or apply, the applies
// of this session (each one's journal file in its tooltip), and the two ways to undo one: the
// apply selected here, or a journal file an earlier session wrote.
class ChangeJournalTab : public QWidget {
    Q_OBJECT
public:
    explicit ChangeJournalTab(QWidget* parent = nullptr);

    QPlainTextEdit* serverAnswer() const { return m_serverAnswer; }
    QListWidget* journalList() const { return m_journals; }
    QPushButton* undoButton() const { return m_undo; }

    // Where Undo from File… starts looking.
    void setJournalFolder(const QString& folder) { m_journalFolder = folder; }
    void showServerAnswer(const QString& text);
    // An apply that wrote its journal to `file`: listed, and selected.
    void addJournal(const ChangeJournal& journal, const QString& file);
    // The journal of the apply selected, or null.
    const ChangeJournal* selectedJournal() const;
    void updateActions(bool applying);

Q_SIGNALS:
    void undoSelectedRequested();
    void undoFileChosen(const QString& path);
    void selectionChanged();

private:
    QString m_journalFolder;
    std::vector<ChangeJournal> m_entries; // by row of m_journals
    QPlainTextEdit* m_serverAnswer = nullptr;
    QListWidget* m_journals = nullptr;
    QPushButton* m_undo = nullptr;
};

} // namespace topodeck
