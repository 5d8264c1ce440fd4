import { STREAM_PATH, streamUrl } from './stream-url';

describe('streamUrl', () => {
  it('turns http into ws and https into wss, keeping any base path', () => {
    expect(streamUrl('https://sb.example.com', 'provider_two')).toBe(
      'wss://sb.example.com/api/telephony/provider_two/stream',
    );
    expect(streamUrl('http://127.0.0.1:3000/base', 'provider_one')).toBe(
      'ws://127.0.0.1:3000/base/api/telephony/provider_one/stream',
    );
  });

  it('matches only the stream path of a known integration', () => {
    expect(STREAM_PATH.exec('/api/telephony/provider_three/stream')?.[1]).toBe('provider_three');
    expect(STREAM_PATH.test('/api/telephony/provider_x/stream')).toBe(false);
    expect(STREAM_PATH.test('/api/telephony/provider_one/stream/x')).toBe(false);
  });
});
