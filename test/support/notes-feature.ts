import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Injectable, Module, OnModuleInit, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { CommandBus, CommandHandler, EventsHandler, ICommandHandler, IEventHandler } from '@nestjs/cqrs';
import { DataSource, EntityManager } from 'typeorm';
import { defineEventCatalogue } from '../../src/event-store/event-catalogue';
import { EventStore, RecordedEvent } from '../../src/event-store/event-store';
import { storedEvent, StoredEventMessage } from '../../src/event-store/stored-event';
import { DomainError } from '../../src/platform/errors/domain-error';
import { AsProjection, Projection } from '../../src/projections/runner/processor';
import { AddNoteDto } from './notes/add-note.dto';
import { Public } from '../../src/platform/http/access';

/**
 * A tiny feature used only by tests to exercise the platform end to end: a
 * command that appends, a deliberately slow projection, a query on its read
 * model, and an EventBus handler that fails on demand.
 */
export const PROJECTION_DELAY_MS = 300;

defineEventCatalogue('test-notes', { NoteAdded: { schemaVersion: 1 } });

const NoteAdded = storedEvent<{ noteId: string; text: string }>('NoteAdded');

class AddNote {
  constructor(
    readonly noteId: string,
    readonly text: string,
  ) {}
}

@CommandHandler(AddNote)
class AddNoteHandler implements ICommandHandler<AddNote> {
  constructor(private readonly store: EventStore) {}

  async execute(command: AddNote): Promise<void> {
    await this.store.append(
      `note-${command.noteId}`,
      [{ type: 'NoteAdded', data: { noteId: command.noteId, text: command.text } }],
      'no_stream',
    );
  }
}

@Injectable()
@AsProjection()
export class NotesProjection implements Projection, OnModuleInit {
  readonly name = 'test-notes';
  readonly eventTypes = ['NoteAdded'];

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS test_notes (id uuid PRIMARY KEY, text text NOT NULL)');
  }

  async apply(event: RecordedEvent, tx: EntityManager): Promise<void> {
    await new Promise((r) => setTimeout(r, PROJECTION_DELAY_MS));
    await tx.query('INSERT INTO test_notes (id, text) VALUES ($1, $2)', [event.data.noteId, event.data.text]);
  }

  async reset(tx: EntityManager): Promise<void> {
    await tx.query('DELETE FROM test_notes');
  }
}

/** Collects what the in-process EventBus delivered; throws on the text "explode". */
@EventsHandler(NoteAdded)
export class NoteAddedListener implements IEventHandler<StoredEventMessage<{ noteId: string; text: string }>> {
  static readonly seen: string[] = [];

  handle(message: StoredEventMessage<{ noteId: string; text: string }>): void {
    if (message.event.data.text === 'explode') throw new Error('listener failure');
    NoteAddedListener.seen.push(message.event.data.text);
  }
}

@Public()
@Controller('test/notes')
class NotesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
  ) {}

  @Post()
  async add(@Body() body: AddNoteDto): Promise<{ id: string }> {
    const noteId = randomUUID();
    await this.commands.execute(new AddNote(noteId, body.text));
    return { id: noteId };
  }

  @Get(':id')
  async get(@Param('id', ParseUUIDPipe) id: string): Promise<{ id: string; text: string }> {
    const [note] = await this.dataSource.query('SELECT id, text FROM test_notes WHERE id = $1', [id]);
    if (!note) throw new DomainError('not_found', 'Note not found');
    return note;
  }
}

@Module({
  controllers: [NotesController],
  providers: [AddNoteHandler, NotesProjection, NoteAddedListener],
})
export class NotesFeatureModule {}
