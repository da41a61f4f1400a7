import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Reads `device_codes`, the read model DeviceCodesProjection builds. */
@Injectable()
export class DeviceCodesReader {
  constructor(private readonly dataSource: DataSource) {}

  /** The device stream a user code points at: the waiting one first, else the newest. */
  async streamForUserCode(userCode: string): Promise<string | null> {
    const [row] = await this.dataSource.query(
      `SELECT device_code_hash FROM device_codes WHERE user_code = $1 ORDER BY (status = 'pending') DESC, expires_at DESC LIMIT 1`,
      [userCode],
    );
    return row ? `device-${row.device_code_hash}` : null;
  }

  async isUserCodeWaiting(userCode: string, now: Date): Promise<boolean> {
    const [taken] = await this.dataSource.query(
      `SELECT 1 FROM device_codes WHERE user_code = $1 AND status = 'pending' AND expires_at > $2`,
      [userCode, now],
    );
    return Boolean(taken);
  }
}
