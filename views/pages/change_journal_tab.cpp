#include "views/pages/change_journal_tab.h"

#include "views/pages/changes_page.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

// The parts of the changes page speak in the page's translation context (ChangesPage::tr): the
// catalogue keeps the plural forms of its strings there, and a translator sees the page as one.

namespace topodeck {

ChangeJournalTab::ChangeJournalTab(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    m_serverAnswer = new QPlainTextEdit;
    m_serverAnswer->setReadOnly(true);
    m_serverAnswer->setPlaceholderText(ChangesPage::tr("The server's answer to a dry run or an apply shows here."));
    layout->addWidget(m_serverAnswer, 1);
    layout->addWidget(new QLabel(ChangesPage::tr("Applies of this session (each one's journal file in its tooltip):")));
    m_journals = new QListWidget;
    layout->addWidget(m_journals, 1);
    auto* buttons = new QHBoxLayout;
    m_undo = new QPushButton(ChangesPage::tr("&Undo Selected…"));
    m_undo->setToolTip(ChangesPage::tr("Previews the plan that puts back what the selected apply changed"));
    auto* openJournalButton = new QPushButton(ChangesPage::tr("Undo from &File…"));
    openJournalButton->setToolTip(ChangesPage::tr("Previews the undo of a journal written by an earlier apply"));
    buttons->addWidget(m_undo);
    buttons->addWidget(openJournalButton);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_undo, &QPushButton::clicked, this, &ChangeJournalTab::undoSelectedRequested);
    connect(m_journals, &QListWidget::currentRowChanged, this, &ChangeJournalTab::selectionChanged);
    connect(openJournalButton, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, ChangesPage::tr("Undo from Journal"), m_journalFolder,
                                         ChangesPage::tr("Journals (*.journal.yaml *.yaml);;All files (*)"));
        if (!path.isEmpty()) Q_EMIT undoFileChosen(path);
    });
}

void ChangeJournalTab::showServerAnswer(const QString& text) {
    m_serverAnswer->setPlainText(text);
}

void ChangeJournalTab::addJournal(const ChangeJournal& journal, const QString& file) {
    m_entries.push_back(journal);
    auto* item = new QListWidgetItem(ChangesPage::tr("%1 — %2 of %3 applied, %4")
                                         .arg(QString::fromStdString(journal.plan))
                                         .arg(journal.count(ChangeOutcome::Applied))
                                         .arg(journal.changes.size() + journal.objectChanges.size())
                                         .arg(QString::fromStdString(journal.started)),
                                     m_journals);
    item->setToolTip(file);
    m_journals->setCurrentItem(item);
}

const ChangeJournal* ChangeJournalTab::selectedJournal() const {
    const int row = m_journals->currentRow();
    return row >= 0 && row < int(m_entries.size()) ? &m_entries[std::size_t(row)] : nullptr;
}

void ChangeJournalTab::updateActions(bool applying) {
    m_undo->setEnabled(!applying && m_journals->currentRow() >= 0);
}

} // namespace topodeck
