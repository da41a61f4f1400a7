import { IsString, Length } from 'class-validator';

export class AddNoteDto {
  /** What the note says. */
  @IsString()
  @Length(1, 50)
  text: string;
}
